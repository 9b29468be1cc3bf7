# SPDX-License-Identifier: GPL-2.0
# pks: the production module alone, as a distribution would ship it. It
# exports the in-kernel API (linux/pks_api.h) and, in the PKS_TEST
# namespace, exactly the test module's list (pks_testing.h), nothing
# else; it has no test, stray or benchmark symbol in its text; its own
# device, /dev/pks, refuses the test module's calls (a test run, a
# stray, the benchmark) and stray flags; protection, listing and guarded
# reads work without pks_test.ko; pkstool test says the test module is
# missing and exits 77; loading pks_test.ko (which pins pks.ko while
# loaded) makes the tests run.
. /tests/lib.sh

unload_pks
load_pks_only
[ -e /dev/pks-test ] && fail "/dev/pks-test exists with pks.ko alone"
syms=$(grep -E ' (pks_test_|pks_stray|pks_bench|pks_up_)[a-z_]*[[:space:]]\[pks\]$' /proc/kallsyms)
expect_eq "test symbols in pks.ko" "$syms" ""

# The exports: what the loaded pks.ko exports (its export strings in
# kallsyms) is what the build's Module.symvers lists for it (its module
# column a path ending in /pks, or on 7.x pks alone); those outside
# a namespace are the in-kernel API linux/pks_api.h declares, and those in
# PKS_TEST exactly the functions pks_testing.h declares for the test
# module (lint ties each to its EXPORT_SYMBOL_NS_GPL). An export in
# neither header fails here.
words() { tr -s ' \n' '\n\n' | sed '/^$/d' | sort | tr '\n' ' '; }
declared() { sed -nE 's/^[a-z].*[ *](_*pks_[a-z0-9_]+)\(.*/\1/p' "$1" | words; }
loaded=$(sed -nE 's/^[0-9a-f]+ [rR] __kstrtab_([a-z0-9_]+)[[:space:]]+\[pks\]$/\1/p' /proc/kallsyms | words)
symvers() { awk -F '\t' -v ns="$1" '$3 ~ /(^|\/)pks$/ && $5 == ns { print $2 }' /lib/modules/pks.symvers | words; }
expect_eq "pks.ko exports, loaded and as built" "$loaded" \
	"$({ symvers ""; symvers PKS_TEST; } | words)"
expect_eq "pks.ko exports outside a namespace" "$(symvers "")" "$(declared /tests/pks_api.h)"
expect_eq "pks.ko exports in PKS_TEST" "$(symvers PKS_TEST)" "$(declared /tests/pks_testing.h)"
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
echo "$out" | grep -q "the test module is not loaded (/dev/pks-test is missing): the pks_test module is not installed for kernel $(uname -r): with the packages, 'apt install pks-test-dkms linux-headers-$(uname -r)' builds it with DKMS" ||
	fail "missing test module error unclear: $out"
pks-ioctl malformed || fail "the production device's checks"

setup_namespaces
pkstool enable dax0.0 || fail "enable with pks.ko alone"
expect_eq "protected" "$(ns_json "$DAX_NS" .protected)" true
expect_rc 0 pks-ioctl guarded-read "$DAX_START"
# The test module's calls sent to /dev/pks itself: each refused as a
# command the device does not know (ENOTTY), the word untouched, nothing
# recorded, no test run.
word=$((DAX_START + 0x3000))
before=$(pks-ioctl guarded-read $word) || fail "guarded read"
seq0=$(last_seq)
for kind in write plain-write; do
	expect_rc 25 env PKS_TEST_DEVICE=/dev/pks pks-ioctl stray $word $kind
done
expect_rc 25 env PKS_TEST_DEVICE=/dev/pks pks-ioctl stray-move $word $((word + 8))
expect_eq "the word after strays sent to /dev/pks" "$(pks-ioctl guarded-read $word)" "$before"
expect_eq "records after strays sent to /dev/pks" "$(last_seq)" "$seq0"
out=$(PKS_TEST_DEVICE=/dev/pks pkstool test --json single-key 2>&1)
rc=$?
echo "pkstool test against /dev/pks (exit $rc): $out"
[ $rc != 0 ] && [ $rc != 77 ] || fail "pkstool test against /dev/pks exited $rc"
echo "$out" | grep -q '"pass"' && fail "a test passed against /dev/pks: $out"
pkstool disable dax0.0 || fail "disable with pks.ko alone"

load_pks
expect_tests_pass single-key
# The control: the same stray through the test device is made, and
# refused by the protection, not by the device.
pkstool enable dax0.0 >/dev/null || fail "enable for the control"
expect_rc 14 pks-ioctl stray $word write
pkstool disable dax0.0 >/dev/null || fail "disable after the control"
exit 0
