# SPDX-License-Identifier: GPL-2.0
# boot: own
# pks: a grant ends with the callback that took it (issue 30 item 5). On
# cpu0, round after round, two callbacks of one kind run back to back in
# one run of their context: two soft hrtimers and two timers with one
# expiry, two tasklets (one softirq run each), two work items of a bound
# workqueue (one kworker). The first reads a word of protected dax0.0 in
# a page the test module holds (the held-page rule grants it); the second
# must find the key closed as it begins (its read faults and is granted
# again: the held-page grants count both). The control runs the same
# rounds with the driver's callback end hooks off: the first's grant is
# still open in the second, or the check could not fail.
. /tests/lib.sh

ROUNDS=200

pks_ready none
pkstool enable dax0.0 >/dev/null || fail "enable dax0.0"
trap 'pkstool disable dax0.0 >/dev/null 2>&1' EXIT
addr=$((DAX_START + 0x100))

# carry KIND [control]: the rounds on cpu0, from cpu1; sets the counts
carry() {
	local out
	out=$(taskset -c 1 pks-ioctl grant-carry $addr 0 $ROUNDS "$@") ||
		fail "grant-carry $*: $out"
	echo "grant-carry $*: $out"
	eval "$out"
}

for kind in hrtimer timer tasklet work; do
	h0=$(rule_grants held-page)
	carry $kind
	h1=$(rule_grants held-page)
	expect_eq "$kind: rounds" "$rounds_done" $ROUNDS
	expect_eq "$kind: first reads" "$first_read" $ROUNDS
	expect_eq "$kind: second reads" "$second_read" $ROUNDS
	expect_eq "$kind: grants open as the second callback began" "$carried" 0
	[ $((h1 - h0)) -ge $((2 * ROUNDS)) ] ||
		fail "$kind: $((h1 - h0)) held-page grants for $((2 * ROUNDS)) reads"
	carry $kind control
	expect_eq "$kind: control: second reads" "$second_read" $ROUNDS
	[ "$carried" -gt 0 ] ||
		fail "$kind: control: no grant was open in the second callback: the check cannot fail"
	echo "ok: $kind: $ROUNDS second callbacks found the key closed ($((h1 - h0)) held-page grants); control: $carried of $ROUNDS found it open"
done
pkstool disable dax0.0 >/dev/null || fail "disable"
exit 0
