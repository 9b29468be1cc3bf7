# SPDX-License-Identifier: GPL-2.0
# pks: in relaxed mode a plain stray write is reported and then completes
# once, every time (the key closes again after each); the kernel keeps
# running; the mode changes on a protected namespace.
# require-kmsg: pks: stray write to dax0\.0\+0x3000 \(key [0-9]+\): allowed once \(relaxed\)
. /tests/lib.sh

quiet_fault_log
pks_ready
pkstool enable --mode=relaxed dax0.0 || fail "enable --mode=relaxed"
expect_eq "mode" "$(ns_json "$DAX_NS" .protection_mode)" relaxed
seq0=$(last_seq)
pks-ioctl stray $((DAX_START + 0x3000)) plain-write 0x1234567890abcdef ||
	fail "relaxed plain write did not complete"
expect_eq "data written" "$(pks-ioctl guarded-read $((DAX_START + 0x3000)))" 0x1234567890abcdef
json=$(pkstool faults --json --since $((seq0 + 1)))
expect_eq "one record" "$(echo "$json" | jq length)" 1
expect_eq "outcome" "$(echo "$json" | jq -r '.[0].outcome')" allowed
out=$(pks-ioctl stray $((DAX_START + 0x3000)) plain-read) || fail "relaxed plain read"
echo "$out" | grep -q 'value 0x1234567890abcdef' || fail "plain read: $out"
# Each access faults again: the key was closed after every step.
i=0
while [ $i -lt 200 ]; do
	pks-ioctl stray $((DAX_START + 0x3000 + (i % 64) * 8)) plain-write $i >/dev/null ||
		fail "plain write $i"
	i=$((i + 1))
done
expect_eq "records for 202 accesses" "$(( $(last_seq) - seq0 ))" 202
expect_eq "cpus back at default PKRS" \
	"$(info_json "[.cpus[] | select(.pkrs == \"$DEFAULT_PKRS\")] | length")" "$(nproc)"
# Fault-safe strays stay refused in relaxed mode.
expect_rc 14 pks-ioctl stray $((DAX_START + 0x3000)) write
pkstool enable --mode=strict dax0.0 || fail "back to strict"
expect_eq "mode" "$(ns_json "$DAX_NS" .protection_mode)" strict
expect_rc 2 pkstool enable --mode=lax dax0.0
pkstool disable dax0.0
exit 0
