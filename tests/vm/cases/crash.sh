# SPDX-License-Identifier: GPL-2.0
# boot: own
# pks: the crash case oopses its caller with a protection-keys page fault
# and the driver survives it with no key leaked.
# expect-kmsg: BUG: unable to handle page fault for address
# expect-kmsg: Oops: 0023 \[#1\]
# require-kmsg: #PF: error_code\(0x0023\) - protection keys violation
# require-kmsg: pks_test: crash test: writing to key [0-9]+
. /tests/lib.sh

load_pks
pkstool test --force crash
status=$?
[ $status -ge 128 ] || fail "pkstool test crash was not killed (exit $status)"
echo "ok: pkstool killed by signal $((status - 128))"
expect_eq "free keys after the crash" \
	"$(info_json '[.keys[] | select(.state == "free")] | length')" 15
expect_tests_pass check-defaults
exit 0
