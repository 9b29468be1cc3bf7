# SPDX-License-Identifier: GPL-2.0
# suite: after-reboot
# vm-shape: cxl+nfit
# vm-backing: keep
# pks: protection of CXL namespaces that survives a power-off, second
# boot (after cxl-reboot-1, same backing files). QEMU 7.2 does not
# re-assemble the CXL region (its decoders are volatile): there is none,
# so nothing is protected and --from-config finds both records missing.
# Then what docs/cxl.md tells an administrator to run: cxl create-region,
# fresh labels, each namespace created again raw with its old label UUID
# and size, in the old order (the kernel finds its dax or pfn info block,
# so it comes back in its mode with the UUID recorded), and pkstool
# enable --from-config protects both in their recorded modes; the word
# and the file are intact, and strays into each are refused.
. /tests/lib.sh

need_cxl cxl+nfit
load_pks
setup_namespaces
mount_raw_disk
[ -f /disk/etc/pkstool/protect.conf ] || fail "no records from the first boot"
rm -rf /etc/pkstool && ln -s /disk/etc/pkstool /etc/pkstool

expect_eq "CXL regions after the power-off" "$(cxl list -R | jq -s 'map(.[]) | length')" 0
out=$(pkstool enable --from-config 2>&1)
expect_eq "--from-config without the region" "$?" 1
echo "$out" | grep -q ': 0 enabled, 0 already, 2 missing, 0 drifted, 0 refused' ||
	fail "--from-config summary without the region: $out"

# The administrator's flow (docs/cxl.md).
cxl_create_region
cxl_relabel
# ndctl reports "failed to enable" for each: the pmem driver, finding
# the info block, hands the namespace to a dax or pfn device and declines
# it itself. --no-autorecover keeps ndctl from deleting it then; what
# came back is checked below.
while read -r ns; do
	ndctl create-namespace -r "$CXL_ND_REGION" -m raw --no-autorecover \
		-u "$(echo "$ns" | jq -r .ns_uuid)" -s "$(echo "$ns" | jq -r .size)" </dev/null
	echo "ndctl create-namespace exited $?"
done < /disk/cxl-namespaces
ndctl list -N -r "$CXL_ND_REGION"
expect_eq "the same namespaces, modes and UUIDs" \
	"$(ndctl list -N -r "$CXL_ND_REGION" | jq -r '.[] | "\(.mode) \(.uuid)"' | sort | paste -sd,)" \
	"$(jq -r '"\(.mode) \(.uuid)"' /disk/cxl-namespaces | sort | paste -sd,)"
out=$(pkstool enable --from-config 2>&1) || fail "--from-config: $out"
echo "$out"
echo "$out" | grep -q ': 2 enabled, 0 already, 0 missing, 0 drifted, 0 refused' ||
	fail "--from-config summary: $out"
cuuid=$(jq -r 'select(.mode == "devdax") | .uuid' /disk/cxl-namespaces)
fuuid=$(jq -r 'select(.mode == "fsdax") | .uuid' /disk/cxl-namespaces)
mode_of() {
	pkstool list --json | jq -r ".[] | select(.uuid == \"$1\") | [.protected, .protection_mode, .persistent] | @json"
}
expect_eq "devdax" "$(mode_of "$cuuid")" '[true,"relaxed",true]'
expect_eq "fsdax" "$(mode_of "$fuuid")" '[true,"strict",true]'

cdax=$(pkstool list --json | jq -r ".[] | select(.uuid == \"$cuuid\") | .chardev")
fblk=$(pkstool list --json | jq -r ".[] | select(.uuid == \"$fuuid\") | .blockdev")
fns=$(pkstool list --json | jq -r ".[] | select(.uuid == \"$fuuid\") | .dev")
cstart=$(cat "/sys/bus/dax/devices/$cdax/resource")
expect_eq "the word on $cdax" "$(pks-ioctl guarded-read $((cstart + 0x5000)))" 0x5eedf00d
mkdir -p /mnt && mount -t ext4 -o dax "/dev/$fblk" /mnt || fail "mount -o dax /dev/$fblk"
expect_eq "/mnt/file" "$(sha256sum /mnt/file | cut -d' ' -f1)" "$(cat /disk/file.sha256)"
expect_rc 14 pks-ioctl stray $((cstart + 0x6000)) write
phys=$(pks-fileops phys /mnt/file) || fail "FIEMAP /mnt/file"
expect_rc 14 pks-ioctl stray $(($(ns_json "$fns" .resource) + phys)) write
expect_eq "/mnt/file after the stray" "$(sha256sum /mnt/file | cut -d' ' -f1)" "$(cat /disk/file.sha256)"
umount /mnt || fail "umount /mnt"
e2fsck -fn "/dev/$fblk" > /tmp/fsck.out 2>&1 || { cat /tmp/fsck.out; fail "e2fsck /dev/$fblk"; }
expect_rc 0 pkstool disable --all
nothing_held || fail "protection left"
rm /etc/pkstool
umount /disk
exit 0
