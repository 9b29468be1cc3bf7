# SPDX-License-Identifier: GPL-2.0
# pks: 100,000 random ioctls (FUZZ_CALLS) as root and as many after giving up root,
# against both devices, with a namespace protected: no oops, no WARN
# (the stock first-fault one included: pks holds it reported), no hang;
# every unprivileged call is refused; the key table and the protected ranges are unchanged; the
# protected data survives and every CPU is back at the default PKRS. The
# control run (which unprotects the namespace itself) shows the checks fail.
# The driver's own allocation counts are unchanged by the fuzzer and back
# to zero (probes aside, placed until unload) once nothing is protected.
# That the calls reached both devices and were decided there is judged
# from what the kernel returned (pks-fuzz's tallies by errno), not from
# the fuzzer's loop count; a control run with the test device absent and
# the one that keeps root show those checks fail.
. /tests/lib.sh

# tally PART DEV KEY: in pks-fuzz's output $out, how many of PART's calls
# (root, unprivileged) to /dev/DEV got KEY back (ok, an errno name) or
# were made (calls); 0 when not listed
tally() {
	echo "$out" | sed -n "s/^tally $1 $2: //p" |
		awk -v k="$3" '{ for (i = 1; i < NF; i += 2) if ($i == k) n = $(i + 1) }
			END { print n + 0 }'
}

# fuzzed PART CALLS: whether the kernel's answers show that PART's CALLS
# calls all reached a device and both devices judged them (says why not)
fuzzed() {
	local part=$1 calls=$2 dev k n sum=0
	for dev in pks pks-test; do
		n=$(tally "$part" $dev calls)
		[ "$n" -gt 0 ] || { echo "$part: no call reached /dev/$dev"; return 1; }
		sum=$((sum + n))
	done
	[ "$sum" = "$calls" ] ||
		{ echo "$part: $sum of $calls calls got an answer"; return 1; }
	if [ "$part" = root ]; then
		# /dev/pks answered some and refused bad sizes, pointers
		# and numbers; /dev/pks-test read its structs (test numbers
		# past the last, wrong sizes) and refused unknown numbers.
		for k in ok EINVAL EFAULT ENOTTY; do
			[ "$(tally root pks $k)" -gt 0 ] ||
				{ echo "root: /dev/pks never returned $k"; return 1; }
		done
		for k in EINVAL ENOTTY; do
			[ "$(tally root pks-test $k)" -gt 0 ] ||
				{ echo "root: /dev/pks-test never returned $k"; return 1; }
		done
		for dev in pks pks-test; do
			n=$(tally root $dev EPERM)
			[ "$n" = 0 ] || { echo "root: /dev/$dev: $n EPERM"; return 1; }
		done
	else
		# The test device refuses everything to a non-admin first;
		# /dev/pks answers its queries and refuses the rest.
		n=$(tally "$part" pks-test calls)
		[ "$(tally "$part" pks-test EPERM)" = "$n" ] ||
			{ echo "$part: /dev/pks-test: $(tally "$part" pks-test EPERM) of $n calls EPERM"; return 1; }
		for k in ok EPERM; do
			[ "$(tally "$part" pks $k)" -gt 0 ] ||
				{ echo "$part: /dev/pks never returned $k"; return 1; }
		done
	fi
}

pks_ready enable
before=$(pks-ioctl guarded-read $((DAX_START + 0x1000))) || fail "guarded read"
# The driver's own counts move with what it holds (so they can show a
# leak): one range, its direct-map entries keyed.
acct=$(pks-ioctl accounting)
echo "before: $acct"
echo "$acct" | grep -Eq '^sessions=1 ranges=1 keyed_entries=[1-9][0-9]* keys=1 ' ||
	fail "accounting with dax0.0 protected: $acct"
seed=${FUZZ_SEED:-1}
calls=${FUZZ_CALLS:-100000}
out=$(timeout "${CASE_TIMEOUT:-600}" pks-fuzz "$calls" "$seed")
rc=$?
echo "$out"
expect_eq "pks-fuzz exit (seed $seed)" "$rc" 0
why=$(fuzzed root "$calls") || fail "$why"
why=$(fuzzed unprivileged "$calls") || fail "$why"
echo "$out" | grep -q "^unprivileged: $calls calls, 0 not refused" ||
	fail "unprivileged calls not all refused"
expect_eq "protected data after the fuzzer" \
	"$(pks-ioctl guarded-read $((DAX_START + 0x1000)))" "$before"
expect_eq "protected after the fuzzer" "$(ns_json "$DAX_NS" .protected)" true
expect_tests_pass check-defaults
expect_eq "accounting after the fuzzer" "$(pks-ioctl accounting)" "$acct"

# The control of the evidence: with the test device absent (as when
# pks_test is not loaded) the fuzzer's own checks pass, the case's not.
out=$(PKS_FUZZ_TEST_DEVICE=/nonexistent pks-fuzz 2000 "$seed")
expect_eq "control without the test device: pks-fuzz exit" "$?" 0
echo "$out" | grep -q 'test device absent' || fail "control: test device was open"
why=$(fuzzed root 2000) && fail "control: test device absent not seen"
echo "control (test device absent): $why"

# The control: a range unprotected between the snapshots, and a child
# that keeps root, must both be caught.
out=$(PKS_FUZZ_CONTROL=1 pks-fuzz 2000 "$seed")
expect_eq "control: pks-fuzz exit" "$?" 1
echo "$out" | grep -q '^state changed:' || fail "control: state change not seen"
echo "$out" | grep -Eq '^unprivileged: 2000 calls, [1-9][0-9]* not refused' ||
	fail "control: calls made as root not seen as accepted"
why=$(fuzzed unprivileged 2000) && fail "control: calls as root seen as refused: $why"
echo "control (unprivileged kept root): $why"
expect_eq "unprotected by the control" "$(ns_json "$DAX_NS" .protected)" false
nothing_held || fail "the fuzzer left something held"
exit 0
