# SPDX-License-Identifier: GPL-2.0
# pks: the production module alone, as a distribution would ship it. It
# has no test code (no test, stray or benchmark symbol in its text); its
# device refuses the test module's calls and stray flags; protection,
# listing and guarded reads work without pks_test.ko; pkstool test says
# the test module is missing and exits 77; loading pks_test.ko (which
# pins pks.ko while loaded) makes the tests run.
. /tests/lib.sh

unload_pks
load_pks_only
[ -e /dev/pks-test ] && fail "/dev/pks-test exists with pks.ko alone"
syms=$(grep -E ' (pks_test_|pks_stray|pks_bench|pks_up_)[a-z_]*[[:space:]]\[pks\]$' /proc/kallsyms)
expect_eq "test symbols in pks.ko" "$syms" ""
# The control: the same pattern finds the test module's own symbols.
insmod /lib/modules/pks_test.ko || fail "insmod pks_test.ko"
n=$(grep -cE ' (pks_test_|pks_stray|pks_bench|pks_up_)[a-z_]*[[:space:]]\[pks_test\]$' /proc/kallsyms)
[ "$n" -gt 10 ] || fail "control: only $n test symbols found in pks_test.ko"
echo "pks_test.ko has $n test symbols, pks.ko none"
out=$(rmmod pks 2>&1) && fail "rmmod pks succeeded under pks_test"
echo "rmmod pks with pks_test loaded: $out"
rmmod pks_test || fail "rmmod pks_test"

out=$(pkstool test single-key 2>&1)
expect_eq "test without pks_test.ko exit" "$?" 77
# Nothing installs the modules in this VM, so the hint must name the
# missing install step (the modprobe case checks the installed wording).
echo "$out" | grep -q "the test module is not loaded (/dev/pks-test is missing): the pks_test module is not installed for kernel $(uname -r): 'make install' builds it with DKMS" ||
	fail "missing test module error unclear: $out"
pks-ioctl malformed || fail "the production device's checks"

setup_namespaces
pkstool enable dax0.0 || fail "enable with pks.ko alone"
expect_eq "protected" "$(ns_json "$DAX_NS" .protected)" true
start=$(cat /sys/bus/dax/devices/dax0.0/resource)
expect_rc 0 pks-ioctl guarded-read "$start"
expect_rc 2 pks-ioctl stray "$start" write
pkstool disable dax0.0 || fail "disable with pks.ko alone"

load_pks
expect_tests_pass single-key
exit 0
