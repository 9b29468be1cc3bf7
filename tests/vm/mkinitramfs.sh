#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh KROOT PKS_KO BUILD OUT: build a busybox initramfs for the
# unpacked Debian kernel at KROOT with its NVDIMM, dax and CXL modules,
# pks.ko (and pks_test.ko beside it),
# ndctl, daxctl, cxl, jq, the pkstool programs in BUILD and the VM test
# cases.
set -euo pipefail

kroot=$1 pks_ko=$2 build=$3 out=$4
here=$(cd "$(dirname "$0")" && pwd)
kver=$(basename "$kroot")
moddir=$kroot/lib/modules/$kver
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
chmod 755 "$stage"

mkdir -p "$stage"/{bin,sbin,dev,proc,sys,tmp,etc,lib/modules,lib/x86_64-linux-gnu,tests,root}
cp /bin/busybox "$stage/bin/busybox"
echo 'root:x:0:0:root:/root:/bin/sh' > "$stage/etc/passwd"
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >> "$stage/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$stage/etc/group"

# Programs and the shared libraries they load, at their own paths.
copy_prog() {
	local prog=$1 dest=$2 lib
	cp "$prog" "$stage/$dest"
	for lib in $(ldd "$prog" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$stage/$(dirname "$lib")"
		cp -L "$lib" "$stage/$lib"
		# A RUNPATH under /tmp (a checkout there) is hidden by the
		# VM's tmpfs: the loader's default path finds it instead.
		case $lib in
		"$build"/*) cp -L "$lib" "$stage/lib/x86_64-linux-gnu/" ;;
		esac
	done
}
for p in ndctl daxctl cxl mkfs.ext4 e2fsck mkfs.xfs xfs_repair xfs_io pmempool \
	 dmsetup; do
	copy_prog "$(command -v $p)" "bin/$p"
done
# The cases' jq is gojq: jq 1.6 compiles its builtins, written in jq, at
# every start, 0.46 s a call under TCG (20 times gojq's CPU time), and
# the cases call it about a thousand times a boot. Both read the filters
# the cases use alike; gojq prints an object's keys sorted, which no case
# compares as text.
copy_prog "$(command -v gojq)" bin/jq
# kmod's modprobe and depmod, for the cases that install the modules the
# way DKMS does (busybox's modprobe has no libkmod indexes to read).
copy_prog "$(command -v kmod)" sbin/kmod
ln -s kmod "$stage/sbin/modprobe"
ln -s kmod "$stage/sbin/depmod"
# bash and bash-completion, for the completion case.
copy_prog "$(command -v bash)" bin/bash
mkdir -p "$stage/usr/share/bash-completion"
cp /usr/share/bash-completion/bash_completion "$stage/usr/share/bash-completion/"
for p in "$build"/pkstool "$build"/vm-bin/*; do
	[ -x "$p" ] && copy_prog "$p" "bin/$(basename "$p")"
done

# Kernel modules in dependency order; 6.12 ships them xz-compressed.
declare -A seen=()
order=()
add_module() {
	local name=${1//-/_} file dep
	[ -n "${seen[$name]:-}" ] && return
	seen[$name]=1
	file=$(find "$moddir/kernel" -name "$name.ko" -o -name "$name.ko.xz" |
	       head -n 1)
	if [ -z "$file" ]; then
		file=$(find "$moddir/kernel" -name "${name//_/-}.ko*" | head -n 1)
	fi
	[ -n "$file" ] || { echo "mkinitramfs: no module $name" >&2; exit 1; }
	for dep in $(modinfo -F depends "$file" | tr ',' ' '); do
		add_module "$dep"
	done
	case $file in
	*.xz) xz -dc "$file" > "$stage/lib/modules/$name.ko" ;;
	*) cp "$file" "$stage/lib/modules/$name.ko" ;;
	esac
	order+=("$name")
}
# brd: a block device whose driver copies with the CPU, for O_DIRECT;
# ext4 and xfs (with the crc32c they look up at mount) for fsdax; kmem
# for a dax device reconfigured to system-ram.
# crc32c_generic is gone since 6.15 (ext4 and xfs call the crc32c
# library directly); where it exists it comes before them.
crc32c=
[ -n "$(find "$moddir/kernel" -name 'crc32c_generic.ko*' | head -n 1)" ] &&
	crc32c=crc32c_generic
for m in libnvdimm nfit nd_btt nd_pmem dax_pmem device_dax brd \
	 $crc32c ext4 xfs dm_writecache loop kmem; do
	add_module "$m"
done
printf '%s\n' "${order[@]}" > "$stage/lib/modules/load-order"
# The CXL stack, loaded after the pmem stack and only on a machine with
# CXL (init reads pkstest.shape): cxl_core and cxl_port are built in.
order=()
for m in cxl_acpi cxl_pci cxl_mem cxl_pmem; do
	add_module "$m"
done
printf '%s\n' "${order[@]}" > "$stage/lib/modules/load-order-cxl"
# The virtio disk, quota and dm-log-writes, for the fstests case, which loads them
# itself (tests/fstests/run.sh gives its VM the disk): modules on 6.1;
# on 6.12 virtio_pci is built in (and has no file then).
order=()
for m in virtio_pci virtio_blk quota_v2 dm_log_writes; do
	[ -n "$(find "$moddir/kernel" -name "$m.ko*" | head -n 1)" ] &&
		add_module "$m"
done
printf '%s\n' "${order[@]}" > "$stage/lib/modules/load-order-fstests"
# fuse, for the copypaths case, which loads it itself (not at boot): a
# module on 6.1, built in on 6.12 (no file then). It depends on nothing.
fuse=$(find "$moddir/kernel" -name fuse.ko -o -name fuse.ko.xz | head -n 1)
case $fuse in
*.xz) xz -dc "$fuse" > "$stage/lib/modules/fuse.ko" ;;
?*) cp "$fuse" "$stage/lib/modules/fuse.ko" ;;
esac
# fsdev_dax (7.x), for the fsdev case, which loads it itself: a dax
# driver that lends a device to a file system. Not loaded at boot.
fsdev=$(find "$moddir/kernel" -name 'fsdev_dax.ko*' | head -n 1)
case $fsdev in
*.xz) xz -dc "$fsdev" > "$stage/lib/modules/fsdev_dax.ko" ;;
?*) cp "$fsdev" "$stage/lib/modules/fsdev_dax.ko" ;;
esac
cp "$pks_ko" "$stage/lib/modules/pks.ko"
cp "$(dirname "$pks_ko")/pks_test.ko" "$stage/lib/modules/pks_test.ko"
# What pks.ko exports, with each export's namespace, and the headers that
# declare its in-kernel API and its test-only exports (the production case).
cp "$(dirname "$pks_ko")/Module.symvers" "$stage/lib/modules/pks.symvers"
cp "$here/../../driver/include/linux/pks_api.h" "$here/../../driver/pks_testing.h" \
	"$stage/tests/"
# The uapi header, whose text the abi case holds the ABI numbers against.
cp "$here/../../driver/include/uapi/linux/pks.h" "$stage/tests/pks.h"

cp "$here/init" "$stage/init"
cp "$here/lib.sh" "$stage/tests/lib.sh"
cp "$here/run-case" "$stage/tests/run-case"
cp "$here/first-fault-warn" "$stage/tests/first-fault-warn"
cp "$here"/cases/*.sh "$stage/tests/"
cp "$here/../../completion/pkstool" "$stage/tests/pkstool.completion"
chmod +x "$stage/init" "$stage/tests/run-case"
(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
