# SPDX-License-Identifier: GPL-2.0
# cpu: nopks
# nopks: on a CPU without PKS the driver refuses to load with a clear
# message and leaves nothing behind; pkstool says why and exits 77.
# require-kmsg: pks: this CPU has no PKS
. /tests/lib.sh

out=$(insmod /lib/modules/pks.ko 2>&1) && fail "insmod succeeded without PKS"
echo "insmod: $out"
grep -q pks /proc/modules && fail "pks is listed in /proc/modules"
[ -e /dev/pks ] && fail "/dev/pks exists"
expect_eq "cpu supports pks" "$(info_json .cpu_supports_pks)" false
expect_rc 77 pkstool test all
pkstool test all 2>&1 | grep -q 'does not support PKS' ||
	fail "pkstool test all does not say PKS is missing"
expect_rc 77 pkstool test all-keys
setup_namespaces
expect_rc 77 pkstool enable dax0.0
# Without the driver nothing is protected: disable has nothing to do.
expect_rc 0 pkstool disable --all
expect_eq "disable without the driver" \
	"$(pkstool disable --json dax0.0 | jq -r '.[0].result')" not-protected
expect_eq "list works without the driver" "$(ns_json "$DAX_NS" .protected)" false
exit 0
