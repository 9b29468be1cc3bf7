# SPDX-License-Identifier: GPL-2.0
# pks: an fsdax namespace protected by its block device keeps working under
# ext4 -o dax and xfs -o dax=always (strict mode): mkfs, mount, file I/O of
# every kind (pks-fileops), libpmem2 on a file and a PMDK pool (pmempool
# create and check), unmount, a clean fsck, the same checksums after
# remount; protection disabled and enabled again (relaxed, then strict)
# while mounted. Stray kernel writes into file data and into the superblock are
# refused and recorded and change nothing. The control, with protection
# off, lets the same strays through and the corruption is detected.
# require-kmsg: pks: pmem[0-9.]+: 0x[0-9a-f]+\+0x[0-9a-f]+ protected with key [0-9]+
. /tests/lib.sh

pks_ready
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
[ -b "/dev/$blk" ] || fail "no fsdax block device"
mkdir -p /mnt

mkfs_fs() {
	case $1 in
	ext4) mkfs.ext4 -q -F -b 4096 "/dev/$blk" ;;
	xfs) mkfs.xfs -q -f "/dev/$blk" ;;
	esac
}
mount_fs() {
	case $1 in
	ext4) mount -t ext4 -o dax "/dev/$blk" /mnt ;;
	xfs) mount -t xfs -o dax=always "/dev/$blk" /mnt ;;
	esac
}
fsck_fs() {
	case $1 in
	ext4) e2fsck -fn "/dev/$blk" ;;
	xfs) xfs_repair -n "/dev/$blk" ;;
	esac
}
# stray_data, stray_sb: stray writes into file data, into the superblock
# (offsets from the namespace's start, $start); each prints the exit codes.
stray_at() {
	local off
	for off in "$@"; do
		pks-ioctl stray $((start + off)) write >/dev/null
		echo $?
	done
}
stray_data() {
	data=$(pks-fileops phys /mnt/big) || fail "FIEMAP"
	stray_at $((data + 0x100)) $((data + 0x10000))
}
stray_sb() {
	sb=1024
	[ "$fs" = xfs ] && sb=0
	stray_at $((sb + 0x38)) $((sb + 0x20))
}
stray_all() {
	stray_data
	stray_sb
}
# hash_files OUT: every file's checksum under /mnt
hash_files() {
	pks-fileops hash /mnt > "$1" && [ -s "$1" ] ||
		fail "$fs: cannot checksum the files under /mnt"
}

pkstool enable "$blk" || fail "enable $blk"
expect_eq "protected" "$(ns_json "$FSDAX_NS" .protected)" true
expect_eq "blockdev" "$(ns_json "$FSDAX_NS" .blockdev)" "$blk"
start=$(ns_json "$FSDAX_NS" .resource)
echo "data area starts at $start"

for fs in ext4 xfs; do
	# dd to and from the block device itself while protected.
	dd if=/dev/urandom of=/tmp/raw bs=1M count=4 2>/dev/null
	dd if=/tmp/raw of="/dev/$blk" bs=1M count=4 conv=fsync 2>/dev/null ||
		fail "dd to /dev/$blk"
	dd if="/dev/$blk" of=/tmp/back bs=1M count=4 2>/dev/null
	cmp /tmp/raw /tmp/back || fail "dd back from /dev/$blk differs"
	echo "ok: $fs: dd to and from the protected block device"

	mkfs_fs $fs || fail "$fs: mkfs"
	mount_fs $fs || fail "$fs: mount with DAX"
	grep -q "/mnt .*dax" /proc/mounts || fail "$fs: not mounted with DAX"
	pks-fileops run /mnt > /tmp/run.out || { cat /tmp/run.out; fail "$fs: file operations"; }
	grep -E '^(ok|FICLONE|MAP_SYNC)' /tmp/run.out
	# PMDK on the file system: libpmem2 on a file, a pool made and checked.
	pks-fileops pmem2 /mnt/pmem2 || fail "$fs: libpmem2 on a DAX file"
	pmempool create obj --size=32M /mnt/pool || fail "$fs: pmempool create"
	pmempool check /mnt/pool || fail "$fs: pmempool check"
	echo "ok: $fs: pmempool create and check"
	hash_files /tmp/hash.before
	seq0=$(last_seq)
	results=$(stray_all | tr '\n' ' ')
	expect_eq "$fs: strays refused" "$results" "14 14 14 14 "
	expect_eq "$fs: strays recorded" "$(last_seq)" $((seq0 + 4))
	umount /mnt || fail "$fs: umount"
	fsck_fs $fs > /tmp/fsck.out 2>&1 || { cat /tmp/fsck.out; fail "$fs: fsck after strays"; }
	echo "ok: $fs: fsck clean"
	mount_fs $fs || fail "$fs: remount"
	hash_files /tmp/hash.after
	cmp /tmp/hash.before /tmp/hash.after || fail "$fs: checksums changed"
	echo "ok: $fs: $(wc -l < /tmp/hash.after) files with the same checksums after remount"
	# Protection comes off and on again under the mounted file system,
	# and relaxed mode lets a plain stray into file data through, reported.
	pkstool disable "$blk" || fail "$fs: disable while mounted"
	hash_files /tmp/hash.mid
	cmp /tmp/hash.before /tmp/hash.mid || fail "$fs: files changed across disable"
	pkstool enable --mode=relaxed "$blk" || fail "$fs: enable relaxed while mounted"
	expect_eq "$fs: mode" "$(ns_json "$FSDAX_NS" .protection_mode)" relaxed
	data=$(pks-fileops phys /mnt/big)
	seq0=$(last_seq)
	pks-ioctl stray $((start + data + 0x40)) plain-read >/dev/null ||
		fail "$fs: relaxed plain read did not complete"
	expect_eq "$fs: relaxed stray reported" "$(last_seq)" $((seq0 + 1))
	pkstool enable --mode=strict "$blk" || fail "$fs: back to strict"
	hash_files /tmp/hash.after
	cmp /tmp/hash.before /tmp/hash.after || fail "$fs: files changed after re-enable"
	echo "ok: $fs: disabled, re-enabled relaxed and strict while mounted, files intact"
	umount /mnt
done

# dm-writecache on the device: enable refuses it, with the reason.
pkstool disable "$blk" || fail "disable before dm-writecache"
export DM_DISABLE_UDEV=1
# dm-writecache formats a cache device whose first block is zero.
dd if=/dev/zero of="/dev/$blk" bs=4k count=1 conv=fsync 2>/dev/null
dmsetup create --noudevsync pkswc --table \
	"0 $(($(blockdev --getsz /dev/ram0))) writecache p /dev/ram0 /dev/$blk 4096 0" ||
	fail "cannot set up dm-writecache"
out=$(pkstool enable "$blk" 2>&1)
expect_eq "enable under dm-writecache" "$?" 1
echo "$out" | grep -q "is in use by dm-" || fail "unclear dm-writecache refusal: $out"
dmsetup remove --noudevsync pkswc || fail "dmsetup remove"
pkstool enable "$blk" || fail "enable after dm-writecache"

# Control: the same strays with protection off corrupt the file system,
# and the checks above see it.
# File data went through the DAX layer, metadata and journals through the
# pmem driver: each either in its copy brackets (ownercopy.c) or granted
# at the fault by its owner.
for r in dax-layer pmem-driver; do
	n=$(owner_access $r)
	[ "$n" -gt 0 ] || fail "no $r access after the protected file-system runs"
	echo "ok: $r: $n grants and bracket openings"
done
pkstool disable "$blk" || fail "disable"
fs=ext4
mkfs_fs $fs && mount_fs $fs || fail "control: mkfs and mount"
pks-fileops run /mnt > /dev/null || fail "control: file operations"
hash_files /tmp/hash.before
# File data first: fsck cannot see it, the checksums must.
expect_eq "control: data strays went through" "$(stray_data | tr '\n' ' ')" "0 0 "
umount /mnt || fail "control: umount"
fsck_fs $fs > /tmp/fsck.out 2>&1 || { cat /tmp/fsck.out; fail "control: fsck after data strays"; }
mount_fs $fs || fail "control: remount"
hash_files /tmp/hash.after
cmp -s /tmp/hash.before /tmp/hash.after &&
	fail "control: the data strays went unnoticed: the checksum check cannot fail"
umount /mnt || fail "control: umount"
# Then the superblock, with nothing mounted (an unmount writes it back
# from memory): fsck must see it.
expect_eq "control: superblock strays went through" "$(stray_sb | tr '\n' ' ')" "0 0 "
fsck_fs $fs > /tmp/fsck.out 2>&1 &&
	fail "control: fsck passed after the superblock strays: the fsck check cannot fail"
echo "ok: control: unprotected strays changed file data (the checksums saw it) and the superblock (fsck saw it)"
exit 0
