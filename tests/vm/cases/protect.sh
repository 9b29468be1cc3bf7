# SPDX-License-Identifier: GPL-2.0
# pks: enable, list, disable a devdax namespace by each of its names;
# summaries that cannot mislead; the built-in protect and stray-write
# cases; rmmod releases protection.
# require-kmsg: pks: dax0.0: 0x[0-9a-f]+\+0x[0-9a-f]+ protected with key [0-9]+ \(2048 KiB pages\)
. /tests/lib.sh

pks_ready
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
	expect_tests_pass stray-write "$name"
	# Every case asked for skipped: nothing was tested, exit 77.
	out=$(pkstool test protect "$name")
	expect_eq "exit when every case skipped" "$?" 77
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

# Result words, and re-runs that say nothing changed (exit 0 each time).
# result CMD...: the one result word pkstool CMD --json prints
result() {
	local json
	json=$(pkstool "$@" --json) || { echo "exit $?"; return; }
	echo "$json" | jq -r '[.[].result] | join(",")'
}
expect_eq "enable" "$(result enable dax0.0)" enabled
expect_eq "enable again" "$(result enable dax0.0)" already
expect_eq "enable strict, as it is" "$(result enable --mode=strict dax0.0)" already
expect_eq "enable relaxed" "$(result enable --mode=relaxed dax0.0)" changed
expect_eq "mode after the change" "$(ns_json "$DAX_NS" .protection_mode)" relaxed
expect_eq "enable relaxed again" "$(result enable -m relaxed dax0.0)" already
expect_eq "enable without a mode keeps it" "$(result enable dax0.0)" already
expect_eq "mode kept" "$(ns_json "$DAX_NS" .protection_mode)" relaxed
expect_eq "disable" "$(result disable dax0.0)" disabled
expect_eq "disable again" "$(result disable dax0.0)" not-protected
expect_eq "disable a raw namespace" "$(result disable "$RAW_NS")" not-protected
expect_eq "no mode after disable" "$(ns_json "$DAX_NS" .protection_mode)" null
expect_eq "no key after disable" "$(ns_json "$DAX_NS" .key)" null
# Partial success: every namespace reported, exit 1 for the refused one.
json=$(pkstool enable --json dax0.0 "$RAW_NS")
expect_eq "partial enable exit" "$?" 1
expect_eq "partial enable results" "$(echo "$json" | jq -r '[.[] | .dev + "=" + .result] | sort | join(",")')" \
	"$(printf '%s\n' "$DAX_NS=enabled" "$RAW_NS=refused" | sort | paste -sd,)"
expect_eq "the enabled one is protected" "$(ns_json "$DAX_NS" .protected)" true
expect_eq "disable --all" "$(pkstool disable --all --json | jq -r '[.[] | .dev + "=" + .result] | sort | join(",")')" \
	"$(printf '%s\n' "$DAX_NS=disabled" "$FSDAX_NS=not-protected" | sort | paste -sd,)"
expect_eq "disable --all again" "$(result disable --all)" "not-protected,not-protected"
# Text for people on stdout by default, with the same word.
expect_eq "enable text" "$(pkstool enable dax0.0 2>/dev/null)" \
	"$DAX_NS: enabled (key $(ns_json "$DAX_NS" .key), strict)"
expect_eq "disable text" "$(pkstool disable dax0.0 2>/dev/null)" "$DAX_NS: disabled"

expect_tests_pass protect dax0.0
expect_tests_pass stray-write dax0.0
json=$(pkstool enable --all --json) || fail "enable --all"
# One case passed and one skipped (protect, on a protected namespace):
# exit 0, the skip allowed by name.
expect_tests_pass --skip-ok protect check-defaults protect dax0.0
expect_eq "enable --all touches devdax and fsdax" "$(echo "$json" | jq -r '[.[].dev] | sort | join(",")')" "$DAX_NS,$FSDAX_NS"
expect_eq "enable --all result" "$(echo "$json" | jq -r '.[0].result')" enabled
# ndctl_size NS [-u]: NS's size as ndctl list -N shows it (an object
# alone, or in an array).
ndctl_size() {
	ndctl list -N ${2:-} -n "$1" | jq -r 'if type == "array" then .[0] else . end | .size'
}
# list -u: the size ndctl list -N -u shows for the same namespace, in
# its format; the raw numbers agree too.
expect_eq "list -u size" "$(pkstool list -u --json | jq -r ".[] | select(.dev == \"$DAX_NS\") | .size")" \
	"$(ndctl_size "$DAX_NS" -u)"
expect_eq "list size" "$(ns_json "$DAX_NS" .size)" \
	"$(ndctl_size "$DAX_NS")"
expect_eq "fsdax list -u size" "$(pkstool list -u --json | jq -r ".[] | select(.dev == \"$FSDAX_NS\") | .size")" \
	"$(ndctl_size "$FSDAX_NS" -u)"
# Filters: each one given narrows the list, and matches what it names.
expect_eq "filter by namespace" "$(pkstool list --json -n dax0.0 | jq -r '[.[].dev] | join(",")')" "$DAX_NS"
expect_eq "filter by mode" "$(pkstool list --json --ns-mode fsdax | jq -r '[.[].dev] | join(",")')" "$FSDAX_NS"
expect_eq "filter by region" "$(pkstool list --json -r 0 | jq length)" \
	"$(ndctl list -N -r region0 | jq 'if type == "array" then length else 1 end')"
expect_eq "filter by other region" "$(pkstool list --json -r 7 | jq length)" 0
expect_eq "filters combine" "$(pkstool list --json -r region0 -M raw | jq -r '[.[].dev] | join(",")')" "$RAW_NS"
expect_rc 1 pkstool list -n no-such-ns
# On an NVDIMM: the ACPI NFIT's bus, no CXL region, and no CXL region
# for -r cxl/ to select.
expect_eq "backing on NFIT" "$(ns_json "$DAX_NS" '[.provider, .cxl_region, .cxl_memdevs] | @json')" \
	'["ACPI.NFIT",null,null]'
expect_eq "filter by CXL region on NFIT" "$(pkstool list --json -r cxl/region0 | jq length)" 0
# Text for people: one line per namespace, by default.
pkstool list | grep -Eq "^$DAX_NS +region0 +ACPI\.NFIT +devdax +dax0.0 +[0-9]+ +protected key [0-9]+ strict faults 0$" ||
	fail "list text: $(pkstool list)"

# Unloading the driver releases every protected range first.
unload_pks
load_pks
expect_eq "unprotected after reload" "$(ns_json "$DAX_NS" .protected)" false
expect_tests_pass protect dax0.0
exit 0
