# SPDX-License-Identifier: GPL-2.0
# boot: own
# pks: in strict mode a plain stray write oopses the writing task, the
# record says so, and the data is untouched. The control: with protection
# off the same write lands without an oops.
# expect-kmsg: BUG: unable to handle page fault for address
# expect-kmsg: Oops: 0023 \[#1\]
# require-kmsg: #PF: error_code\(0x0023\) - protection keys violation
# require-kmsg: pks: stray write to dax0\.0\+0x4000 \(key [0-9]+\): refused, oops follows
. /tests/lib.sh

pks_ready enable
before=$(pks-ioctl guarded-read $((DAX_START + 0x4000))) || fail "guarded read"
seq0=$(last_seq)
pks-ioctl stray $((DAX_START + 0x4000)) plain-write
status=$?
[ $status -ge 128 ] || fail "the plain stray write did not kill its task (exit $status)"
expect_eq "data" "$(pks-ioctl guarded-read $((DAX_START + 0x4000)))" "$before"
json=$(pkstool faults --json --since $((seq0 + 1)))
expect_eq "one record" "$(echo "$json" | jq length)" 1
expect_eq "outcome" "$(echo "$json" | jq -r '.[0].outcome')" oops
expect_eq "still protected" "$(ns_json "$DAX_NS" .protected)" true
pkstool disable dax0.0 || fail "disable after the oops"
# Control: with protection off the same plain write lands, no oops.
[ "$before" != $STRAY_VALUE ] || fail "the word held the stray's value before"
expect_rc 0 pks-ioctl stray $((DAX_START + 0x4000)) plain-write
expect_eq "control: the word after the plain write" \
	"$(unprotected_read $((DAX_START + 0x4000)))" $STRAY_VALUE
exit 0
