# SPDX-License-Identifier: GPL-2.0
# pks: a CPU taken offline loses PKS, one brought back gets it again, and
# the cases pass before, during and after. The driver reports, for each
# CPU it sees come back, how many interrupts and softirqs ran there with
# keys unenforced (the hotplug windows before its callbacks): the case
# prints them.
# require-kmsg: pks: cpu1: PKS enabled; [0-9]+ interrupts and softirqs ran there unenforced since its teardown
. /tests/lib.sh

cpu1=/sys/devices/system/cpu/cpu1/online
[ -w $cpu1 ] || skip "cpu1 cannot be taken offline"
load_pks
# The cases that write into a namespace use only the one named.
setup_namespaces
echo 0 > $cpu1 || fail "cannot offline cpu1"
expect_eq "cpu1 online" "$(info_json '.cpus[1].online')" false
expect_tests_pass --skip-ok key-free,context-switch all dax0.0
echo 1 > $cpu1 || fail "cannot online cpu1"
expect_eq "cpu1 CR4.PKS" "$(info_json '.cpus[1].cr4_pks')" true
expect_eq "cpu1 PKRS" "$(info_json '.cpus[1].pkrs')" "$DEFAULT_PKRS"
expect_tests_pass all dax0.0
expect_tests_pass all-keys

# A stray on a CPU just brought online is refused at the first access.
setup_namespaces
start=$(cat /sys/bus/dax/devices/dax0.0/resource)
pkstool enable dax0.0 || fail "enable"
i=0
while [ $i -lt 5 ]; do
	echo 0 > $cpu1 && echo 1 > $cpu1 || fail "round $i: cpu1 hotplug"
	expect_rc 14 taskset -c 1 pks-ioctl stray $((start + 0x5000)) write
	expect_eq "round $i: cpu1 PKRS" "$(info_json '.cpus[1].pkrs')" "$DEFAULT_PKRS"
	i=$((i + 1))
done
pkstool disable dax0.0 || fail "disable"
# Control: unprotected, the same stray on cpu1 lands.
expect_rc 0 taskset -c 1 pks-ioctl stray $((start + 0x5000)) write
echo "unenforced interrupts and softirqs per cpu1 hotplug cycle:" \
	$(dmesg | sed -n 's/.*pks: cpu1: PKS enabled; \([0-9]*\) interrupts.*/\1/p')
exit 0
