# SPDX-License-Identifier: GPL-2.0
# vm-shape: cxl
# pks: a CXL region torn down under protection. With a devdax and an
# fsdax namespace of the region protected (a stray into each refused
# first: the control that they were), each of ndctl disable-namespace
# (the fsdax one), cxl destroy-region, cxl disable-region and cxl
# disable-memdev releases the protection before the memory goes: no
# range, keyed direct-map entry or key is left by the driver's own
# accounting (pkstool info), and the kernel log says each was released.
# After each but the last, the region and its namespaces are created
# again (labels from the old region are invalid: relabelled) and
# protected again, the new namespaces' strays refused. cxl disable-memdev
# comes last: QEMU 7.2's memdev does not probe again in the same boot
# (its endpoint decoder "committed with zero size").
# require-kmsg: pks: dax[0-9.]+ is going away while protected: releasing it
# require-kmsg: pks: pmem[0-9.]+ is going away while protected: releasing it
. /tests/lib.sh

need_cxl cxl
load_pks

# setup [relabel]: a CXL region (unless one is up; with "relabel" on
# fresh labels, those of the last region being invalid), a devdax and an
# fsdax namespace on it, both protected (strict) and a stray into each
# refused; sets CDAX, FBLK and their namespaces CNS, FNS.
setup() {
	if [ -z "$(ndctl list -R -b CXL | jq -r '.[0].dev // empty')" ]; then
		cxl_create_region
		[ "${1:-}" = relabel ] && cxl_relabel
	fi
	cxl_namespaces
	CNS=$CXL_DAX_NS CDAX=$CXL_DAX FNS=$CXL_FSDAX_NS FBLK=$CXL_BLK
	expect_rc 0 pkstool enable "$CDAX" "$FBLK"
	expect_eq "held" "$(info_json '.accounting | [.ranges, .keys] | @json')" '[2,2]'
	expect_rc 14 pks-ioctl stray $(($(cat "/sys/bus/dax/devices/$CDAX/resource") + 0x1000)) write
	expect_rc 14 pks-ioctl stray $(($(ns_json "$FNS" .resource) + 0x1000)) write
	echo "protected on $CXL_REGION: $CNS $CDAX, $FNS $FBLK"
}

# released WHAT: nothing held after WHAT, no namespace listed protected
released() {
	nothing_held || fail "protection left after $1"
	expect_eq "protected after $1" \
		"$(pkstool list --json | jq '[.[] | select(.protected)] | length')" 0
	echo "ok: $1 released the protection"
}

setup
ndctl disable-namespace "$FNS" >/dev/null || fail "ndctl disable-namespace $FNS"
expect_eq "held after disable-namespace $FNS" \
	"$(info_json '.accounting | [.ranges, .keys] | @json')" '[1,1]'
expect_eq "$CNS still protected" "$(ns_json "$CNS" .protected)" true
cxl destroy-region -f "$CXL_REGION" || fail "cxl destroy-region $CXL_REGION"
expect_eq "nvdimm regions on CXL after destroy-region" \
	"$(ndctl list -R -b CXL | jq -s 'map(.[]) | length')" 0
released "ndctl disable-namespace $FNS, then cxl destroy-region"

setup relabel
cxl disable-region "$CXL_REGION" || fail "cxl disable-region $CXL_REGION"
released "cxl disable-region"
cxl destroy-region -f "$CXL_REGION" || fail "cxl destroy-region $CXL_REGION"

setup relabel
cxl disable-memdev -f mem0 || fail "cxl disable-memdev mem0"
released "cxl disable-memdev"
exit 0
