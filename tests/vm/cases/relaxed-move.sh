# SPDX-License-Identifier: GPL-2.0
# pks: relaxed mode survives one instruction that faults on two keys: a
# single movsq from one relaxed namespace into another, run on every CPU,
# completes with the word moved and no oops; afterwards, with both strict,
# strays into either are refused on every CPU and every CPU is back at the
# default PKRS. (Before, the second fault inside the single-step oopsed and
# left the first key open on that CPU for good.) The control: unprotected,
# the same strays land on every CPU.
# require-kmsg: pks: stray write to dax[0-9.]+\+0x4008 \(key [0-9]+\): allowed once \(relaxed\)
. /tests/lib.sh

quiet_fault_log
pks_ready
json=$(ndctl create-namespace -r region0 -m devdax -a 2M -s 64M) ||
	fail "cannot create a second devdax namespace"
ns2=$(echo "$json" | jq -r .dev)
dax2=$(echo "$json" | jq -r '.daxregion.devices[0].chardev')
cleanup() {
	pkstool disable dax0.0 "$dax2" >/dev/null 2>&1
	ndctl destroy-namespace -f "$ns2" >/dev/null 2>&1
}
trap cleanup EXIT
src=$(( $(cat /sys/bus/dax/devices/dax0.0/resource) + 0x4000 ))
dst=$(( $(cat "/sys/bus/dax/devices/$dax2/resource") + 0x4008 ))
pkstool enable --mode=relaxed dax0.0 "$dax2" || fail "enable both relaxed"

cpu=0
while [ $cpu -lt "$(nproc)" ]; do
	val=$(printf '%#x' $((0x1234000000000000 + cpu)))
	pks-ioctl stray $src plain-write "$val" >/dev/null ||
		fail "relaxed plain write of the source"
	taskset -c $cpu pks-ioctl stray-move $dst $src ||
		fail "cpu$cpu: the two-key move did not complete"
	expect_eq "cpu$cpu: word moved" "$(pks-ioctl guarded-read $dst)" "$val"
	cpu=$((cpu + 1))
done

pkstool enable --mode=strict dax0.0 "$dax2" || fail "both strict"
cpu=0
while [ $cpu -lt "$(nproc)" ]; do
	expect_rc 14 taskset -c $cpu pks-ioctl stray $src write
	expect_rc 14 taskset -c $cpu pks-ioctl stray $dst write
	expect_rc 14 taskset -c $cpu pks-ioctl stray $dst read
	cpu=$((cpu + 1))
done
expect_eq "cpus back at default PKRS" \
	"$(info_json "[.cpus[] | select(.pkrs == \"$DEFAULT_PKRS\")] | length")" "$(nproc)"
# Control: unprotected, the same strays land on every CPU.
pkstool disable dax0.0 "$dax2" || fail "disable both"
cpu=0
while [ $cpu -lt "$(nproc)" ]; do
	expect_rc 0 taskset -c $cpu pks-ioctl stray $src write
	expect_rc 0 taskset -c $cpu pks-ioctl stray $dst write
	cpu=$((cpu + 1))
done
exit 0
