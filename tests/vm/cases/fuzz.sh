# SPDX-License-Identifier: GPL-2.0
# pks: 100,000 random ioctls (FUZZ_CALLS) as root and as many after giving up root,
# against both devices, with a namespace protected: no oops, no WARN
# (the stock first-fault one included: pks holds it reported), no hang;
# every unprivileged call is refused; the key table and the protected ranges are unchanged; the
# protected data survives and every CPU is back at the default PKRS. The
# control run (which unprotects the namespace itself) shows the checks fail.
# The driver's own allocation counts are unchanged by the fuzzer and back
# to zero (probes aside, placed until unload) once nothing is protected.
. /tests/lib.sh

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
echo "$out" | grep -q "^root: $calls calls" || fail "root calls not all made"
echo "$out" | grep -q "^unprivileged: $calls calls, 0 not refused" ||
	fail "unprivileged calls not all refused"
expect_eq "protected data after the fuzzer" \
	"$(pks-ioctl guarded-read $((DAX_START + 0x1000)))" "$before"
expect_eq "protected after the fuzzer" "$(ns_json "$DAX_NS" .protected)" true
expect_tests_pass check-defaults
expect_eq "accounting after the fuzzer" "$(pks-ioctl accounting)" "$acct"

# The control: a range unprotected between the snapshots, and a child
# that keeps root, must both be caught.
out=$(PKS_FUZZ_CONTROL=1 pks-fuzz 2000 "$seed")
expect_eq "control: pks-fuzz exit" "$?" 1
echo "$out" | grep -q '^state changed:' || fail "control: state change not seen"
echo "$out" | grep -Eq '^unprivileged: 2000 calls, [1-9][0-9]* not refused' ||
	fail "control: calls made as root not seen as accepted"
expect_eq "unprotected by the control" "$(ns_json "$DAX_NS" .protected)" false
nothing_held || fail "the fuzzer left something held"
exit 0
