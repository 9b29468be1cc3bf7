# SPDX-License-Identifier: GPL-2.0
# vm-shape: cxl+nfit
# boot: own
# pks: a machine with an NVDIMM and a CXL type-3 device. pkstool list
# tells their namespaces apart (ACPI.NFIT, or CXL with its region and
# memdev). The NVDIMM's region is region0; the CXL region and its nvdimm
# region share the next number (one allocator numbers every memory
# region, as pkstool list(8) says), and -r selects each region's own
# namespaces, cxl/ only CXL ones. A devdax namespace of each, protected in
# different modes, gets its own key; a stray write into each is refused
# and recorded against its own namespace, and the relaxed one lets a
# plain stray through, reported.
. /tests/lib.sh

need_cxl cxl+nfit
load_pks
# The NVDIMM's namespaces first, while its region is the only one.
setup_namespaces
cxl_create_region
expect_eq "the CXL region's nvdimm region" "$CXL_ND_REGION" "$CXL_REGION"
[ "$CXL_REGION" != region0 ] || fail "the CXL region took the NVDIMM's region0"
ndctl create-namespace -r "$CXL_ND_REGION" -m devdax -a 2M -s 256M >/dev/null ||
	fail "devdax namespace on $CXL_ND_REGION"
CXL_NS=$(ndctl list -N -r "$CXL_ND_REGION" | jq -r '.[] | select(.mode == "devdax") | .dev')
cdax=$(ns_json "$CXL_NS" .chardev)
[ -c "/dev/$cdax" ] && [ "$cdax" != dax0.0 ] || fail "no dax device for $CXL_NS"
echo "NVDIMM: $DAX_NS dax0.0; CXL $CXL_REGION (nvdimm $CXL_ND_REGION): $CXL_NS $cdax"

backing='[.provider, .cxl_region, .cxl_memdevs] | @json'
expect_eq "$DAX_NS backing" "$(ns_json "$DAX_NS" "$backing")" '["ACPI.NFIT",null,null]'
expect_eq "$CXL_NS backing" "$(ns_json "$CXL_NS" "$backing")" "[\"CXL\",\"$CXL_REGION\",[\"mem0\"]]"
pkstool list --json | emit_json list
devs() {
	pkstool list --json "$@" | jq -r '.[].dev' | sort | tr '\n' ' '
}
expect_eq "list -r region0" "$(devs -r region0)" \
	"$(printf '%s\n' "$DAX_NS" "$FSDAX_NS" "$RAW_NS" | sort | tr '\n' ' ')"
expect_eq "list -r $CXL_ND_REGION" "$(devs -r "$CXL_ND_REGION")" "$CXL_NS "
expect_eq "list -r cxl/$CXL_REGION" "$(devs -r "cxl/$CXL_REGION")" "$CXL_NS "
expect_eq "list -r cxl/region0" "$(devs -r cxl/region0)" ""

pkstool enable --mode=relaxed dax0.0 || fail "enable dax0.0 relaxed"
pkstool enable --mode=strict "$cdax" || fail "enable $cdax strict"
k0=$(ns_json "$DAX_NS" .key) k1=$(ns_json "$CXL_NS" .key)
[ "$k0" != "$k1" ] || fail "one key for both namespaces: $k0"
echo "ok: dax0.0 key $k0 relaxed, $cdax key $k1 strict"
seq0=$(last_seq)
s0=$(cat /sys/bus/dax/devices/dax0.0/resource)
s1=$(cat "/sys/bus/dax/devices/$cdax/resource")
expect_rc 14 pks-ioctl stray $((s0 + 0x2000)) write
expect_rc 14 pks-ioctl stray $((s1 + 0x3000)) write
pks-ioctl stray $((s0 + 0x4000)) plain-write 0x77 ||
	fail "relaxed plain write into dax0.0 did not complete"
expect_eq "relaxed write landed" "$(pks-ioctl guarded-read $((s0 + 0x4000)))" 0x77
rec=$(pkstool faults --json --since $((seq0 + 1))) || fail "pkstool faults"
expect_eq "records" "$(echo "$rec" | jq -r '[.[] | [.access, .chardev, .offset, .key, .outcome] | join(" ")] | join(";")')" \
	"write dax0.0 0x2000 $k0 refused;write $cdax 0x3000 $k1 refused;write dax0.0 0x4000 $k0 allowed"
pkstool disable --all || fail "disable --all"
nothing_held || fail "protection left after disable --all"
exit 0
