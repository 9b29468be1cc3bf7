# SPDX-License-Identifier: GPL-2.0
# pks: a CPU taken offline loses PKS, one brought back gets it again, and
# the cases pass before, during and after.
# expect-kmsg: WARNING: CPU: [0-9]+ PID: [0-9]+ at arch/x86/mm/fault\.c:[0-9]+
. /tests/lib.sh

cpu1=/sys/devices/system/cpu/cpu1/online
[ -w $cpu1 ] || skip "cpu1 cannot be taken offline"
load_pks
echo 0 > $cpu1 || fail "cannot offline cpu1"
expect_eq "cpu1 online" "$(info_json '.cpus[1].online')" false
expect_rc 0 pkstool test all
echo 1 > $cpu1 || fail "cannot online cpu1"
expect_eq "cpu1 CR4.PKS" "$(info_json '.cpus[1].cr4_pks')" true
expect_eq "cpu1 PKRS" "$(info_json '.cpus[1].pkrs')" "$DEFAULT_PKRS"
expect_rc 0 pkstool test all
expect_rc 0 pkstool test all-keys
exit 0
