# SPDX-License-Identifier: GPL-2.0
# suite: bench
# expect-kmsg: WARNING: CPU: [0-9]+ PID: [0-9]+ at arch/x86/mm/fault\.c:[0-9]+
# pks: the benchmark (make bench, not make check), each comparison side by
# side in one boot. Guard windows against page-table changes with a TLB
# flush on every CPU; a 64 MiB process_vm_readv() of a protected mapping
# against the same unprotected. The event counts are checked; the times
# are reported, never asserted.
. /tests/lib.sh

load_pks
for n in 1000 10000; do
	out=$(pks-bench $n) || fail "pks-bench $n"
	echo "$out"
	expect_eq "PKRS writes per window" "$(echo "$out" | jq .window_pkrs_writes_per_op)" 2
	expect_eq "PKRS writes for redundant opens" "$(echo "$out" | jq .redundant_open_pkrs_writes)" 0
	expect_eq "TLB flushes per PTE round trip" "$(echo "$out" | jq .tlb_flushes_per_op)" "$((2 * $(nproc)))"
done

# process_vm_readv: unprotected nothing is probed; protected, each call
# costs one entry probe, one fault-probe hit, one grant, and two PKRS
# writes (grant, restore) plus two per context switch inside the call.
setup_namespaces
calls=20
pks-pvm-bench /dev/dax0.0 $calls > /tmp/pvm-off.json || fail "unprotected run"
pkstool enable dax0.0 || fail "enable"
pks-pvm-bench /dev/dax0.0 $calls > /tmp/pvm-on.json || fail "protected run"
pkstool disable dax0.0 || fail "disable"
jq -c '{figure: "process_vm_readv 64 MiB", protected: false} + .' /tmp/pvm-off.json
jq -c '{figure: "process_vm_readv 64 MiB", protected: true} + .' /tmp/pvm-on.json
off() { jq ".$1" /tmp/pvm-off.json; }
on() { jq ".$1" /tmp/pvm-on.json; }
for c in entry_probe_hits grants fault_probe_hits pkrs_writes; do
	expect_eq "unprotected $c" "$(off $c)" 0
done
for c in entry_probe_hits grants fault_probe_hits; do
	expect_eq "protected $c" "$(on $c)" $calls
done
w=$(on pkrs_writes) sw=$(on context_switches)
[ "$w" -ge $((2 * calls)) ] && [ "$w" -le $((2 * calls + 2 * sw)) ] ||
	fail "protected PKRS writes $w, outside [$((2 * calls)), $((2 * calls + 2 * sw))]"
echo "ok: protected PKRS writes $w for $calls calls and $sw context switches"
echo "{\"figure\": \"process_vm_readv 64 MiB\", \"throughput_ratio_protected_to_unprotected\": $(jq -n "$(on mb_per_s) / $(off mb_per_s)")}"
exit 0
