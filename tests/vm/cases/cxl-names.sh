# SPDX-License-Identifier: GPL-2.0
# vm-shape: cxl+nfit
# pks: enable and disable a devdax and an fsdax namespace of a CXL region
# by every name an administrator types: the namespace name, the device
# name and path, the block device, the UUID (ndctl list -N), and with
# --all narrowed by -r (the nvdimm region, or cxl/ and the CXL region)
# or --memdev (the CXL memdev). Each enable is checked by a stray write
# refused, each disable by nothing held; the NVDIMM's namespaces on the
# same machine are the control that the filters select: --all with a CXL
# filter leaves them unprotected, and a name outside the filter is an
# error that changes nothing.
. /tests/lib.sh

need_cxl cxl+nfit
load_pks
setup_namespaces
cxl_create_region
cxl_namespaces
cns=$CXL_DAX_NS cdax=$CXL_DAX cuuid=$CXL_DAX_UUID
fns=$CXL_FSDAX_NS fblk=$CXL_BLK fuuid=$CXL_FSDAX_UUID
[ -n "$cuuid" ] && [ -n "$fuuid" ] || fail "CXL namespaces without a UUID"
cstart=$(cat "/sys/bus/dax/devices/$cdax/resource")
# The fsdax data area, as the driver protects it (list shows it while
# protected; before, the namespace's start, where its metadata is).
pkstool enable "$fblk" >/dev/null || fail "enable $fblk"
fstart=$(ns_json "$fns" .resource)
pkstool disable "$fblk" >/dev/null || fail "disable $fblk"

# protected: which of the namespaces (NVDIMM and CXL) are protected now
protected() {
	pkstool list --json | jq -r '[.[] | select(.protected) | .dev] | sort | join(" ")'
}
both=$(printf '%s\n' "$cns" "$fns" | sort | tr '\n' ' ')
both=${both% }
# check_on WHAT NS...: exactly NS are protected, and a stray write into
# each CXL one is refused
check_on() {
	local what=$1 want ns
	shift
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	expect_eq "$what: protected" "$(protected)" "${want% }"
	for ns in "$@"; do
		case $ns in
		"$cns") expect_rc 14 pks-ioctl stray $((cstart + 0x2000)) write ;;
		"$fns") expect_rc 14 pks-ioctl stray $((fstart + 0x2000)) write ;;
		esac
	done
}
# check_off WHAT: nothing protected, nothing held, and the strays land
check_off() {
	expect_eq "$1: protected" "$(protected)" ""
	nothing_held || fail "$1: protection left"
	expect_rc 0 pks-ioctl stray $((cstart + 0x2000)) write 0x5
	expect_rc 0 pks-ioctl stray $((fstart + 0x2000)) write 0x5
}

check_off "before"
# One name at a time, devdax then fsdax.
for name in "$cns" "$cdax" "/dev/$cdax" "$cuuid" "$(echo "$cuuid" | tr a-f A-F)"; do
	expect_rc 0 pkstool enable "$name"
	check_on "enable $name" "$cns"
	expect_rc 0 pkstool disable "$name"
	check_off "disable $name"
done
for name in "$fns" "$fblk" "/dev/$fblk" "$fuuid"; do
	expect_rc 0 pkstool enable "$name"
	check_on "enable $name" "$fns"
	expect_rc 0 pkstool disable "$name"
	check_off "disable $name"
done
# Both by UUID in one command, JSON naming each with its result.
expect_eq "enable by UUIDs" \
	"$(pkstool enable --json "$cuuid" "$fuuid" | jq -r '[.[] | "\(.dev) \(.result)"] | sort | join(",")')" \
	"$(printf '%s enabled\n' "$cns" "$fns" | sort | paste -sd,)"
check_on "enable by UUIDs" "$cns" "$fns"
expect_rc 0 pkstool disable "$cuuid" "$fuuid"
check_off "disable by UUIDs"

# --all narrowed to the CXL region or memdev: the NVDIMM's namespaces
# (the control) stay unprotected.
for filter in "-r $CXL_ND_REGION" "-r cxl/$CXL_REGION" "-r cxl/${CXL_REGION#region}" \
	      "--memdev mem0" "--memdev 0"; do
	# shellcheck disable=SC2086
	expect_rc 0 pkstool enable --all $filter
	check_on "enable --all $filter" "$cns" "$fns"
	# shellcheck disable=SC2086
	expect_rc 0 pkstool disable --all $filter
	check_off "disable --all $filter"
done
# And the other way: the NVDIMM region alone leaves the CXL ones be.
expect_rc 0 pkstool enable --all -r region0
check_on "enable --all -r region0" "$DAX_NS" "$FSDAX_NS"
expect_rc 0 pkstool disable --all -r cxl/"$CXL_REGION"
check_on "disable --all -r cxl/$CXL_REGION (NVDIMM ones kept)" "$DAX_NS" "$FSDAX_NS"
expect_rc 0 pkstool disable --all -r region0
check_off "disable --all -r region0"
# A name outside the filter: an error, nothing changed.
out=$(pkstool enable -r cxl/"$CXL_REGION" "$cdax" dax0.0 2>&1)
expect_eq "enable -r cxl/$CXL_REGION $cdax dax0.0 exit" "$?" 1
echo "$out" | grep -q "dax0.0 is not on region cxl/$CXL_REGION" ||
	fail "unclear refusal: $out"
out=$(pkstool enable --memdev mem9 "$cdax" 2>&1)
expect_eq "enable --memdev mem9 $cdax exit" "$?" 1
check_off "after the refusals"
expect_rc 0 pkstool enable -r cxl/"$CXL_REGION" --memdev mem0 "$cdax" "$fuuid"
check_on "enable -r cxl/$CXL_REGION --memdev mem0 by names" "$cns" "$fns"
expect_rc 0 pkstool disable --all
check_off "disable --all"
exit 0
