# SPDX-License-Identifier: GPL-2.0
# pks: load the driver; every CPU has CR4.PKS and the default PKRS, read
# from the registers; /dev/pks is readable by all (changes need root);
# key 0 is reserved; the
# grant rules are listed, armed only while a namespace is protected, with
# the interrupt entry and exit hooks in place then.
. /tests/lib.sh

# Cases share a boot: start from an unloaded driver.
unload_pks
pkstool info --json | jq -e '.[0].driver.loaded == false' >/dev/null ||
	fail "info claims a driver before insmod"
load_pks
expect_eq "/dev/pks mode" "$(stat -c %a /dev/pks)" 644
expect_eq "cpu supports pks" "$(info_json .cpu_supports_pks)" true
expect_eq "driver loaded" "$(info_json .driver.loaded)" true
expect_eq "abi" "$(info_json .driver.abi_version)" 7
expect_eq "fault hook" "$(info_json .driver.fault_hook)" true
expect_eq "fault log" "$(info_json .driver.fault_log)" true
expect_eq "dax guard placed (not missing)" "$(info_json .driver.dax_guard_missing)" false
n=$(nproc)
expect_eq "online cpus with CR4.PKS" \
	"$(info_json '[.cpus[] | select(.online and .cr4_pks)] | length')" "$n"
expect_eq "cpus with default PKRS" \
	"$(info_json "[.cpus[] | select(.pkrs == \"$DEFAULT_PKRS\" and .pkrs_cached == \"$DEFAULT_PKRS\")] | length")" "$n"
expect_eq "key 0" "$(info_json '.keys[0].state')" reserved
expect_eq "free keys" "$(info_json '[.keys[] | select(.state == "free")] | length')" 15
# Grants: every rule listed (PKS_GRANT_RULES, in order), none armed and
# no task holding a grant with nothing protected; armed once a namespace
# is, with the interrupt boundary hooks in place to end a grant.
expect_eq "grants armed" "$(info_json .grants.armed)" false
expect_eq "grant rules" "$(info_json '[.grants.rules[].name] | join(",")')" \
	held-page,dax-layer,pmem-driver
expect_eq "tasks granted" "$(info_json .grants.tasks_granted)" 0
setup_namespaces
pkstool enable dax0.0 || fail "enable"
expect_eq "grants armed with dax0.0 protected" "$(info_json .grants.armed)" true
[ "$(info_json .grants.boundary_hooks)" -gt 0 ] ||
	fail "no interrupt boundary hooks in place with dax0.0 protected"
# The driver's own counts, as info shows them, move with what it holds
# and agree with the raw ioctl's.
expect_eq "accounting: ranges, keys" "$(info_json '"\(.accounting.ranges) \(.accounting.keys)"')" "1 1"
[ "$(info_json .accounting.keyed_entries)" -gt 0 ] || fail "no keyed entries counted"
expect_eq "accounting: info and ioctl" \
	"$(info_json '.accounting | to_entries | sort_by(.key) | map("\(.key)=\(.value)") | join(" ")')" \
	"$(pks-ioctl accounting | tr ' ' '\n' | sort | xargs)"
pkstool disable dax0.0 || fail "disable"
expect_eq "accounting after disable" "$(info_json '"\(.accounting.ranges) \(.accounting.keys) \(.accounting.keyed_entries)"')" "0 0 0"
pkstool info
exit 0
