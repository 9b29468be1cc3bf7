# SPDX-License-Identifier: GPL-2.0
# boot: own
# then-boot: reboot-2
# pks: protection that survives a power-off, first boot. The raw
# namespace stands in for the root disk: an ext4 on it holds what make
# install and enable --persist leave on a real machine, the modules in
# /lib/modules/KVER/updates/dkms and /etc/pkstool. Records dax0.0 relaxed
# and the fsdax namespace strict, then powers off; reboot-2 boots the
# same VM again (same NVDIMM backing file).
. /tests/lib.sh

kver=$(uname -r)
unload_pks
setup_namespaces
mount_raw_disk new
# What make install (through DKMS) and --persist write, on the "disk".
mkdir -p "/disk/lib/modules/$kver/updates/dkms" /disk/etc/pkstool
cp /lib/modules/pks.ko /lib/modules/pks_test.ko "/disk/lib/modules/$kver/updates/dkms/"
rm -rf /etc/pkstool "/lib/modules/$kver"
ln -s /disk/etc/pkstool /etc/pkstool
ln -s "/disk/lib/modules/$kver" "/lib/modules/$kver"
/sbin/depmod -a "$kver" 2>/dev/null || fail "depmod failed"
/sbin/modprobe pks || fail "modprobe pks failed"

expect_rc 0 pkstool enable --persist --mode=relaxed dax0.0
expect_rc 0 pkstool enable --persist "$FSDAX_NS"
ndctl list -N | jq -r '.[] | select(.mode == "devdax" or .mode == "fsdax") | .uuid' |
	sort > /disk/uuids
cat /etc/pkstool/protect.conf
/sbin/modprobe -r pks || fail "modprobe -r pks failed"
rm /etc/pkstool "/lib/modules/$kver"
umount /disk || fail "umount /disk failed"
exit 0
