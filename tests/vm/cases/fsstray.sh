# SPDX-License-Identifier: GPL-2.0
# pks: a stray from the file system's own code under the DAX layer is
# refused (issue 30 item 7a). ext4's iomap_begin callback runs a few
# frames under dax_iomap_rw() for every read and write of a file on ext4
# -o dax; the test module's kprobe there makes one fault-safe stray write
# per call into a page of the protected namespace that no file uses, as a
# bad pointer in ext4's block mapping, extent or journal code would. The
# owner rules admit the DAX layer or nd_pmem only when nothing but copy
# routines lies between them and the faulting instruction, so every stray
# is refused and counted as a fault of the namespace, the word keeps its
# value, and the file's data is right. Control: the owner rules judged as
# before the review (any DAX or pmem code among the callers admits), and
# the same strays land.
. /tests/lib.sh

pks_ready
ext4_dax_stray_target 1 0x200

# io: 256 reads and 256 writes of 4 KiB, each one dax_iomap_rw() call
io() {
	dd if=/mnt/f of=/mnt/f bs=4k conv=notrunc,fsync 2>/dev/null ||
		fail "I/O of /mnt/f"
}

# strays [control]: arm, run the I/O, disarm; sets landed and refused
strays() {
	pks-ioctl fs-strays-arm $target "$@" || fail "arm the strays"
	io
	eval "$(pks-ioctl fs-strays-disarm)" || fail "disarm the strays"
}

faults0=$(ns_json "$FSDAX_NS" .faults)
strays
expect_eq "strays from ext4 under dax_iomap_rw that landed" "$landed" 0
[ "$refused" -ge 512 ] || fail "only $refused strays ran for 512 calls"
expect_eq "namespace faults counted" "$(ns_json "$FSDAX_NS" .faults)" \
	$((faults0 + refused))
expect_eq "the stray word" "$(pks-ioctl guarded-read $target)" "$word0"
expect_eq "file data" "$(md5sum < /mnt/f)" "$want"
echo "ok: $refused strays from ext4's iomap_begin refused"

strays control
[ "$landed" -gt 0 ] ||
	fail "control: none of $refused strays landed: the check cannot fail"
expect_eq "control: the stray word" "$(pks-ioctl guarded-read $target)" \
	0xbadbadbadbadbad0
expect_eq "file data after the control" "$(md5sum < /mnt/f)" "$want"
echo "ok: control: $landed of $((landed + refused)) strays landed"

pkstool disable "$blk" >/dev/null || fail "disable"
umount /mnt || fail "umount"
e2fsck -fn "/dev/$blk" > /tmp/fsck.out 2>&1 || { cat /tmp/fsck.out; fail "fsck"; }
exit 0
