# SPDX-License-Identifier: GPL-2.0
# boot: own
# vm-smp: 2,maxcpus=3,sockets=1,cores=3,threads=1
# vm-qemu: -device max-x86_64-cpu,socket-id=0,core-id=2,thread-id=0,pks=off
# pks: a machine whose third CPU has no PKS (QEMU plugs it in with
# pks=off). With that CPU online the driver refuses to load: loaded from
# it, it says this CPU has no PKS; from another, which CPU to take
# offline. With it offline the driver loads, and bringing it online is
# refused while the driver is loaded: it stays offline, and strays on the
# other CPUs are still refused. The control: once the driver is unloaded
# the same CPU comes online, so the refusal was the driver's. pkstool run
# on that CPU says it has no PKS.
# require-kmsg: pks: this CPU has no PKS \(CPUID.*\); not loading
# require-kmsg: pks: cpu2 has no PKS: take it offline \(echo 0 > /sys/devices/system/cpu/cpu2/online\) before loading pks
# require-kmsg: pks: cpu2 has no PKS: it cannot come online while pks is loaded
. /tests/lib.sh

cpu2=/sys/devices/system/cpu/cpu2/online
[ -e $cpu2 ] || fail "the VM has no cpu2"
expect_eq "cpu2 online at boot" "$(cat $cpu2)" 1
# Without the driver, pkstool tells the CPUs apart by CPUID.
expect_eq "pkstool on cpu2" \
	"$(taskset -c 2 pkstool info | grep 'cpu supports pks')" \
	"cpu supports pks: no"
expect_eq "pkstool on cpu0" \
	"$(taskset -c 0 pkstool info | grep 'cpu supports pks')" \
	"cpu supports pks: yes"

# Loaded from cpu2 itself, or from cpu0 while cpu2 is online: refused.
for c in 2 0; do
	taskset -c $c insmod /lib/modules/pks.ko &&
		fail "pks.ko loaded from cpu$c with a CPU without PKS online"
	[ -e /dev/pks ] && fail "/dev/pks exists after the refused load"
	echo "ok: pks.ko refused from cpu$c with cpu2 online"
done

echo 0 > $cpu2 || fail "cannot take cpu2 offline"
load_pks
expect_eq "online CPUs in pkstool info" \
	"$(info_json '[.cpus[] | select(.online)] | length')" 2
echo 1 > $cpu2 2>/dev/null && fail "cpu2 came online with pks loaded"
expect_eq "cpu2 online with pks loaded" "$(cat $cpu2)" 0

setup_namespaces
start=$(cat /sys/bus/dax/devices/dax0.0/resource)
expect_rc 0 pkstool enable dax0.0
expect_rc 14 taskset -c 0 pks-ioctl stray $((start + 0x3000)) write
expect_rc 14 taskset -c 1 pks-ioctl stray $((start + 0x3000)) write
expect_rc 0 pkstool disable dax0.0
nothing_held || fail "something is still held"
unload_pks

# The control: without the driver, cpu2 comes online.
echo 1 > $cpu2 || fail "cpu2 did not come online without pks loaded"
expect_eq "cpu2 online without pks" "$(cat $cpu2)" 1
exit 0
