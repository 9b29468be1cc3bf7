# SPDX-License-Identifier: GPL-2.0
# pks: rmmod removes /dev/pks, and insmod brings the driver back with
# every CPU at its default again. At unload the driver finds none of its
# own counted objects left (ranges, keyed entries, keys, task and grant
# states, sessions, probes).
# require-kmsg: pks: PKS disabled
# require-kmsg: pks: unloading with nothing outstanding
. /tests/lib.sh

load_pks
expect_tests_pass single-key
unload_pks
[ -e /dev/pks ] && fail "/dev/pks still exists after rmmod"
expect_rc 77 pkstool test all
expect_eq "driver loaded" "$(info_json .driver.loaded)" false
load_pks
expect_tests_pass check-defaults
expect_eq "cpus at default PKRS" \
	"$(info_json "[.cpus[] | select(.cr4_pks and .pkrs == \"$DEFAULT_PKRS\")] | length")" "$(nproc)"
exit 0
