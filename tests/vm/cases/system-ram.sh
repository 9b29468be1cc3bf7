# SPDX-License-Identifier: GPL-2.0
# boot: own
# pks: a devdax namespace given to the kernel as memory (daxctl
# reconfigure-device -m system-ram) lists as mode system-ram with no dax
# device, and enable refuses it with the reason; back in devdax mode it
# lists as devdax with its dax device and can be protected again.
# (Its own boot: hotplugged memory stays behind if the way back fails.)
. /tests/lib.sh

pks_ready
expect_eq "mode before" "$(ns_json "$DAX_NS" .mode)" devdax
# 6.12 onlines hotplugged memory by policy, and daxctl then refuses to
# move the device ("kernel policy will auto-online memory"): turn the
# policy off for this boot.
policy=/sys/devices/system/memory/auto_online_blocks
[ -w $policy ] && { echo offline > $policy || fail "cannot set $policy"; }
daxctl reconfigure-device -m system-ram --no-online dax0.0 >/dev/null ||
	fail "daxctl cannot reconfigure dax0.0 to system-ram"
rc=1
expect_eq "mode as memory" "$(ns_json "$DAX_NS" .mode)" system-ram
expect_eq "no dax device as memory" "$(ns_json "$DAX_NS" .chardev)" null
expect_eq "listed by mode" "$(pkstool list --json -M system-ram | jq -r '[.[].dev] | join(",")')" "$DAX_NS"
json=$(pkstool enable --json "$DAX_NS")
expect_eq "enable as memory exit" "$?" 1
expect_eq "enable as memory result" "$(echo "$json" | jq -r '.[0].result')" refused
echo "$json" | jq -r '.[0].reason' | grep -q "is system-ram" ||
	fail "reason: $json"
daxctl reconfigure-device -m devdax -f dax0.0 >/dev/null ||
	fail "daxctl cannot give dax0.0 back to devdax"
expect_eq "mode back" "$(ns_json "$DAX_NS" .mode)" devdax
expect_eq "dax device back" "$(ns_json "$DAX_NS" .chardev)" dax0.0
expect_eq "enable back" "$(pkstool enable --json dax0.0 | jq -r '.[0].result')" enabled
pkstool disable dax0.0 >/dev/null || fail "disable"
exit 0
