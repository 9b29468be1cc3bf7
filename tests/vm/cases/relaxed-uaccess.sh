# SPDX-License-Identifier: GPL-2.0
# boot: own
# pks: in relaxed mode a stray user copy straight from or to a namespace
# completes with the right data (issue 30 item 8): copy_to_user() of 64
# KiB from protected dax0.0 into a fresh anonymous mapping none of whose
# pages has been touched (the same instruction faults on the key and on
# each user page, which mm code may sleep to fill in), and
# copy_from_user() into it; each recorded as allowed, no WARN, every CPU
# back at the default PKRS afterwards. Such a stray is granted to the
# task as a legitimate access is (it ends as the task leaves the CPU or
# returns to user space), not single-stepped with interrupts off. Two
# copiers run at once, unbound, many rounds, so that some copies sleep
# and move between CPUs inside the copy. In strict mode the same
# copy_to_user() fails with EFAULT. (A strict copy_from_user() oopses: after
# the fixed-up fault the kernel zeroes the rest of the destination with a
# plain memset, itself a stray.)
. /tests/lib.sh

LEN=65536
ROUNDS=40

quiet_fault_log
pks_ready none
addr=$((DAX_START + (4 << 20)))
pkstool enable dax0.0 >/dev/null || fail "enable dax0.0"
expect_rc 14 pks-ioctl user-copy $addr $LEN read

pkstool enable --mode=relaxed dax0.0 || fail "enable --mode=relaxed"
seq0=$(last_seq)
pks-ioctl user-copy $addr $LEN write || fail "relaxed copy_from_user"
pks-ioctl user-copy $addr $LEN read || fail "relaxed copy_to_user"
json=$(pkstool faults --json --since $((seq0 + 1)))
n=$(echo "$json" | jq length)
[ "$n" -ge 2 ] || fail "$n records for two stray copies"
expect_eq "outcomes" "$(echo "$json" | jq -r '[.[].outcome] | unique | join(",")')" allowed

# copier N: ROUNDS reads of its own 64 KiB, each into fresh pages
copier() {
	local i=0 a=$((addr + $1 * LEN))
	pks-ioctl user-copy $a $LEN write >/dev/null || return 1
	while [ $i -lt $ROUNDS ]; do
		pks-ioctl user-copy $a $LEN read >/dev/null || return 1
		i=$((i + 1))
	done
}
copier 1 & c1=$!
copier 2 & c2=$!
wait $c1 || fail "copier 1: a relaxed copy failed or its data differ"
wait $c2 || fail "copier 2: a relaxed copy failed or its data differ"
echo "ok: $((2 * ROUNDS + 4)) relaxed user copies of $LEN bytes completed with the right data"
expect_eq "cpus back at default PKRS" \
	"$(info_json "[.cpus[] | select(.pkrs == \"$DEFAULT_PKRS\")] | length")" "$(nproc)"
pkstool disable dax0.0 >/dev/null || fail "disable"
exit 0
