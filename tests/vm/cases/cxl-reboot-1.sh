# SPDX-License-Identifier: GPL-2.0
# vm-shape: cxl+nfit
# vm-backing: keep
# then-boot: cxl-reboot-2
# pks: protection of CXL namespaces that survives a power-off, first
# boot. The NVDIMM's raw namespace stands in for the root disk (holding
# /etc/pkstool). On a CXL region, a devdax namespace is recorded relaxed
# by name and an fsdax one strict by its UUID (enable --persist); the
# records hold their UUIDs. An ext4 on the fsdax one and a word on the
# devdax one are the data that must survive; what the administrator
# keeps to re-create the namespaces (their label UUIDs and sizes) goes
# to the disk. cxl-reboot-2 boots the same machine (same backing files).
. /tests/lib.sh

need_cxl cxl+nfit
load_pks
setup_namespaces
mount_raw_disk new
mkdir -p /disk/etc/pkstool
rm -rf /etc/pkstool && ln -s /disk/etc/pkstool /etc/pkstool

cxl_create_region
cxl_namespaces
# What an administrator keeps: each namespace's mode, UUID, and its
# label's UUID and raw size from sysfs (ndctl list -N shows neither for
# devdax), in the order they were created.
ndctl list -N -r "$CXL_ND_REGION" |
	jq -c 'sort_by(.dev | ltrimstr("namespace") | split(".") | map(tonumber)) | .[]' |
	while read -r ns; do
		dev=$(echo "$ns" | jq -r .dev)
		echo "$ns" | jq -c --arg size "$(cat "/sys/bus/nd/devices/$dev/size")" \
			--arg ns_uuid "$(cat "/sys/bus/nd/devices/$dev/uuid")" \
			'{dev, mode, uuid, ns_uuid: $ns_uuid, chardev, blockdev, size: ($size | tonumber)}'
	done > /disk/cxl-namespaces
cat /disk/cxl-namespaces
[ "$(wc -l < /disk/cxl-namespaces)" = 2 ] || fail "two CXL namespaces expected"
cdax=$(jq -r 'select(.mode == "devdax") | .chardev' /disk/cxl-namespaces)
fuuid=$(jq -r 'select(.mode == "fsdax") | .uuid' /disk/cxl-namespaces)
fblk=$(jq -r 'select(.mode == "fsdax") | .blockdev' /disk/cxl-namespaces)

# The data: a word on the devdax namespace (written by the kernel, before
# protection) and a file on an ext4 on the fsdax one.
cstart=$(cat "/sys/bus/dax/devices/$cdax/resource")
expect_rc 0 pks-ioctl stray $((cstart + 0x5000)) write 0x5eedf00d
expect_eq "the word written" "$(unprotected_read $((cstart + 0x5000)))" 0x5eedf00d
mkfs.ext4 -q -F -b 4096 "/dev/$fblk" || fail "mkfs.ext4 /dev/$fblk"
mkdir -p /mnt && mount -t ext4 -o dax "/dev/$fblk" /mnt || fail "mount -o dax /dev/$fblk"
dd if=/dev/urandom of=/mnt/file bs=1M count=4 2>/dev/null && sync ||
	fail "write /mnt/file"
sha256sum /mnt/file | cut -d' ' -f1 > /disk/file.sha256

expect_rc 0 pkstool enable --persist --mode=relaxed "$cdax"
expect_rc 0 pkstool enable --persist "$fuuid"
cat /etc/pkstool/protect.conf
for u in $(jq -r .uuid /disk/cxl-namespaces); do
	grep -qx "\[protect $u\]" /etc/pkstool/protect.conf ||
		fail "no record of $u"
done
expect_eq "records" "$(grep -c '^\[protect ' /etc/pkstool/protect.conf)" 2
umount /mnt || fail "umount /mnt"
expect_rc 0 pkstool disable --all
rm /etc/pkstool
umount /disk || fail "umount /disk failed"
exit 0
