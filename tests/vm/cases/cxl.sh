# SPDX-License-Identifier: GPL-2.0
# vm-shape: cxl
# boot: own
# pks: persistent memory on a CXL type-3 device (QEMU's, one memdev, no
# interleave). cxl create-region makes a pmem region; a devdax and an
# fsdax namespace on it are listed as CXL-backed with their CXL region
# and memdev (as root and as nobody, text and JSON; -r selects them by
# either region name). Both are protected (strict): a stray write into
# each is refused, recorded with its own namespace and changes nothing,
# where with protection off the same write lands (the controls); the
# libpmem2 integrity proof passes on the devdax one; ext4 -o dax on the
# protected fsdax one keeps a file's data across a remount and fscks
# clean. Teardown releases protection first: ndctl disable-namespace of
# the protected devdax namespace, then cxl disable-region under the
# protected fsdax one, until nothing is held.
# require-kmsg: pks: stray write to dax[0-9.]+\+0x1000 \(key [0-9]+\): refused, seq [0-9]+
# require-kmsg: pks: stray write to pmem[0-9.]+\+0x[0-9a-f]+ \(key [0-9]+\): refused, seq [0-9]+
# require-kmsg: pks: dax[0-9.]+ is going away while protected: releasing it
# require-kmsg: pks: pmem[0-9.]+ is going away while protected: releasing it
. /tests/lib.sh

nobody() { su -s /bin/sh nobody -c "$*"; }

need_cxl
load_pks
cxl_create_region
cxl_namespaces
DAX_NS=$CXL_DAX_NS FSDAX_NS=$CXL_FSDAX_NS dax=$CXL_DAX blk=$CXL_BLK
expect_eq "list: $DAX_NS's dax device" "$(ns_json "$DAX_NS" .chardev)" "$dax"
expect_eq "list: $FSDAX_NS's block device" "$(ns_json "$FSDAX_NS" .blockdev)" "$blk"
# The CXL region's memdevs as the cxl tool lists them.
memdevs=$(cxl list -R -T -r "$CXL_REGION" | jq -c '[.[0].mappings[].memdev]')
expect_eq "cxl list: $CXL_REGION memdevs" "$memdevs" '["mem0"]'

# What backs each namespace, as root and as nobody (who cannot read the
# nvdimm region's start, so the match is by root and size alone).
backing='[.provider, .cxl_region, .cxl_memdevs] | @json'
want="[\"CXL\",\"$CXL_REGION\",$memdevs]"
for ns in "$DAX_NS" "$FSDAX_NS"; do
	expect_eq "$ns backing" "$(ns_json "$ns" "$backing")" "$want"
	expect_eq "$ns backing as nobody" \
		"$(nobody pkstool list --json | jq -r ".[] | select(.dev == \"$ns\") | $backing")" "$want"
done
pkstool list --json | emit_json list
pkstool list | grep -Eq "^$DAX_NS +$CXL_ND_REGION +cxl/$CXL_REGION:mem0 +devdax +$dax " ||
	fail "list text: $(pkstool list)"
# -r: the nvdimm region by its name, the CXL region with cxl/.
both=$(printf '%s\n' "$DAX_NS" "$FSDAX_NS" | sort | tr '\n' ' ')
for r in "$CXL_ND_REGION" "${CXL_ND_REGION#region}" "cxl/$CXL_REGION" "cxl/${CXL_REGION#region}"; do
	expect_eq "list -r $r" "$(pkstool list --json -r "$r" | jq -r '.[].dev' | sort | tr '\n' ' ')" "$both"
done
expect_eq "list -r cxl/region9" "$(pkstool list --json -r cxl/region9 | jq length)" 0

# devdax. Control: unprotected, a stray write lands, unrecorded.
start=$(cat "/sys/bus/dax/devices/$dax/resource")
seq0=$(last_seq)
expect_rc 0 pks-ioctl stray $((start + 0x1000)) write 0x1111
expect_eq "control: the stray landed" "$(unprotected_read $((start + 0x1000)))" 0x1111
expect_eq "control: nothing recorded" "$(last_seq)" "$seq0"
# The integrity proof: 1000 strays refused under protection, and the
# same writes corrupting the pattern without it.
integrity_proof "$DAX_NS"
expect_rc 0 pks-ioctl stray $((start + 0x1000)) write 0x1111
pkstool enable --mode=strict "$dax" || fail "enable $dax"
expect_eq "$dax protected" "$(ns_json "$DAX_NS" '[.protected, .protection_mode] | @json')" '[true,"strict"]'
quiet_fault_log
seq0=$(last_seq)
expect_rc 14 pks-ioctl stray $((start + 0x1000)) write
expect_eq "$dax data after the stray" "$(pks-ioctl guarded-read $((start + 0x1000)))" 0x1111
rec=$(pkstool faults --json --since $((seq0 + 1)) "$DAX_NS") || fail "pkstool faults"
expect_eq "$dax record" "$(echo "$rec" | jq -r '[.[] | [.access, .chardev, .offset, .outcome] | join(" ")] | join(";")')" \
	"write $dax 0x1000 refused"

# fsdax: ext4 -o dax on the protected namespace.
pkstool enable --mode=strict "$FSDAX_NS" || fail "enable $FSDAX_NS"
fstart=$(ns_json "$FSDAX_NS" .resource)
echo "$blk: data area at $fstart"
mkfs.ext4 -q -F -b 4096 "/dev/$blk" || fail "mkfs.ext4 on $blk"
mkdir -p /mnt
mount -t ext4 -o dax "/dev/$blk" /mnt || fail "mount -o dax $blk"
grep -q "/mnt .*dax" /proc/mounts || fail "$blk: not mounted with DAX"
dd if=/dev/urandom of=/tmp/file bs=1M count=4 2>/dev/null
cp /tmp/file /mnt/file && sync || fail "write /mnt/file"
cmp /tmp/file /mnt/file || fail "/mnt/file read back differs"
phys=$(pks-fileops phys /mnt/file) || fail "FIEMAP /mnt/file"
quiet_fault_log
seq0=$(last_seq)
expect_rc 14 pks-ioctl stray $((fstart + phys + 0x100)) write
rec=$(pkstool faults --json --since $((seq0 + 1)) "$blk") || fail "pkstool faults $blk"
expect_eq "$blk record" "$(echo "$rec" | jq -r '[.[] | [.access, .chardev, .offset, .outcome] | join(" ")] | join(";")')" \
	"write $blk $(printf '%#x' $((phys + 0x100))) refused"
expect_eq "records for $dax since" "$(pkstool faults --json --since $((seq0 + 1)) "$dax" | jq length)" 0
cmp /tmp/file /mnt/file || fail "/mnt/file changed by a refused stray"
umount /mnt || fail "umount"
e2fsck -fn "/dev/$blk" > /tmp/fsck.out 2>&1 || { cat /tmp/fsck.out; fail "e2fsck after the stray"; }
mount -t ext4 -o dax "/dev/$blk" /mnt || fail "remount"
cmp /tmp/file /mnt/file || fail "/mnt/file differs after remount"
echo "ok: ext4 -o dax on $blk: file intact across a refused stray and a remount, fsck clean"
# Control: unprotected, the same stray changes the file.
pkstool disable "$blk" || fail "disable $blk"
expect_rc 0 pks-ioctl stray $((fstart + phys + 0x100)) write
cmp -s /tmp/file /mnt/file && fail "control: the stray into /mnt/file went unnoticed"
echo "ok: control: unprotected, the stray changed /mnt/file"
umount /mnt || fail "umount"
pkstool enable --mode=strict "$blk" || fail "enable $blk again"

# Teardown under protection. Both namespaces are protected: the control
# for the releases below.
acct='.accounting | [.ranges, .keys] | @json'
expect_eq "held before teardown" "$(info_json "$acct")" '[2,2]'
ndctl disable-namespace "$DAX_NS" || fail "ndctl disable-namespace $DAX_NS"
expect_eq "held after disable-namespace" "$(info_json "$acct")" '[1,1]'
expect_eq "$blk still protected" "$(ns_json "$FSDAX_NS" .protected)" true
cxl disable-region "$CXL_REGION" || fail "cxl disable-region $CXL_REGION"
expect_eq "nvdimm regions on CXL after disable-region" \
	"$(ndctl list -R -b CXL | jq -s 'map(.[]) | length')" 0
nothing_held || fail "protection left after cxl disable-region"
exit 0
