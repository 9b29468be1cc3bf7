# SPDX-License-Identifier: GPL-2.0
# pks: enable, list, disable a devdax namespace by each of its names;
# summaries that cannot mislead; the built-in protect and stray-write
# cases; rmmod releases protection.
# expect-kmsg: WARNING: CPU: [0-9]+ PID: [0-9]+ at arch/x86/mm/fault\.c:[0-9]+
# require-kmsg: pks: dax0.0: 0x[0-9a-f]+\+0x[0-9a-f]+ protected with key [0-9]+ \(2048 KiB pages\)
. /tests/lib.sh

load_pks
setup_namespaces
expect_eq "devdax chardev" "$(ns_json "$DAX_NS" .chardev)" dax0.0
expect_eq "resource" "$(ns_json "$DAX_NS" .resource)" \
	"$(sysfs_hex /sys/bus/dax/devices/dax0.0/resource)"
expect_eq "unprotected at first" "$(ns_json "$DAX_NS" .protected)" false

for name in "$DAX_NS" dax0.0 /dev/dax0.0; do
	out=$(pkstool enable "$name" 2>&1) || fail "enable $name: $out"
	echo "$out" | grep -q '1 enabled, 0 already, 0 changed, 0 refused' ||
		fail "enable summary: $out"
	expect_eq "protected" "$(ns_json "$DAX_NS" .protected)" true
	key=$(ns_json "$DAX_NS" .key)
	expect_eq "key owner" "$(info_json ".keys[$key].owner")" dax0.0
	out=$(pkstool enable "$name" 2>&1) || fail "second enable: $out"
	echo "$out" | grep -q '0 enabled, 1 already, 0 changed, 0 refused' ||
		fail "second enable summary: $out"
	expect_rc 0 pkstool test stray-write "$name"
	out=$(pkstool test protect "$name")
	echo "$out" | grep -q '^\[SKIP\] protect: the namespace is protected already' ||
		fail "protect case on a protected namespace: $out"
	out=$(pkstool disable "$name" 2>&1) || fail "disable $name: $out"
	echo "$out" | grep -q '1 disabled, 0 not-protected, 0 refused' ||
		fail "disable summary: $out"
	expect_eq "unprotected" "$(ns_json "$DAX_NS" .protected)" false
	expect_eq "key freed" "$(info_json ".keys[$key].state")" free
done
out=$(pkstool disable dax0.0 2>&1) || fail "disable when not enabled: $out"
echo "$out" | grep -q '0 disabled, 1 not-protected, 0 refused' ||
	fail "disable twice: $out"

expect_rc 0 pkstool test protect dax0.0
expect_rc 0 pkstool test stray-write
json=$(pkstool enable --all --json) || fail "enable --all"
expect_eq "enable --all touches devdax and fsdax" "$(echo "$json" | jq -r '[.[].dev] | sort | join(",")')" "$DAX_NS,$FSDAX_NS"
expect_eq "enable --all result" "$(echo "$json" | jq -r '.[0].result')" enabled
expect_eq "list -u size" "$(pkstool list -u | jq -r ".[] | select(.dev == \"$DAX_NS\") | .range_size")" \
	"502.00 MiB (0.53 GB)"

# Unloading the driver releases every protected range first.
unload_pks
load_pks
expect_eq "unprotected after reload" "$(ns_json "$DAX_NS" .protected)" false
expect_rc 0 pkstool test protect
exit 0
