# SPDX-License-Identifier: GPL-2.0
# pks: upstream's own selftest, test_pks from the V10 series, built
# unmodified from ../shared/upstream, against pks_test.ko's run_pks: all
# six of its tests print [OK] (counted: the program exits 0 even when
# everything skips), check_defaults, single, context_switch, exception,
# exception_update and run_all; none fails. The control: with pks_test
# unloaded the same program prints no [OK].
. /tests/lib.sh

[ -x /bin/test_pks ] || skip "test_pks was not built: ../shared/upstream/test_pks.c is absent"
load_pks
grep -q ' /sys/kernel/debug ' /proc/mounts ||
	mount -t debugfs debugfs /sys/kernel/debug
[ -e /sys/kernel/debug/x86/run_pks ] || fail "no /sys/kernel/debug/x86/run_pks"
out=$(test_pks 2>&1)
rc=$?
echo "$out"
expect_eq "test_pks exit" "$rc" 0
expect_eq "[OK] lines" "$(echo "$out" | grep -c '^\[OK\]')" 6
expect_eq "[FAIL] lines" "$(echo "$out" | grep -c '^\[FAIL\]')" 0
expect_eq "[SKIP] lines" "$(echo "$out" | grep -c '^\[SKIP\]')" 0
rmmod pks_test || fail "rmmod pks_test"
expect_eq "free keys after rmmod pks_test" \
	"$(info_json '[.keys[] | select(.state == "free")] | length')" 15
# Control: without the test module's run_pks the same program passes
# nothing, so the [OK] count above can fail.
out=$(test_pks 2>&1)
echo "$out"
expect_eq "control: [OK] lines without pks_test" "$(echo "$out" | grep -c '^\[OK\]')" 0
exit 0
