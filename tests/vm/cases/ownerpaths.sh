# SPDX-License-Identifier: GPL-2.0
# pks: the namespace's owners reach it without being named. On a
# protected fsdax namespace (strict):
# - buffered reads of /dev/pmemN after the page cache was dropped, with
#   posix_fadvise(WILLNEED) and readahead(2) (on 6.1 the pmem driver's
#   pmem_rw_page(); on 6.12 its bio path): the right data, counted under
#   the pmem-driver rule or its copy brackets (driver/ownercopy.c);
# - FALLOC_FL_UNSHARE_RANGE on a reflinked xfs -o dax=always file (the
#   DAX layer's copy of shared blocks): the right data, counted under the
#   dax-layer rule, and a clean xfs_repair.
# Each runs unprotected first (the control: the same data, nothing
# counted); protected, nothing may be recorded as a stray.
. /tests/lib.sh

pks_ready
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
[ -b "/dev/$blk" ] || fail "no fsdax block device"
pkstool disable --all >/dev/null || fail "disable --all"
dd if=/dev/urandom of=/tmp/raw bs=1M count=16 2>/dev/null
want=$(md5sum < /tmp/raw)
dd if=/tmp/raw of="/dev/$blk" bs=1M oflag=direct 2>/dev/null ||
	fail "cannot write /dev/$blk"

# expect_counted off|on RULE GRANTS0 SEQ0 WHAT: unprotected, RULE's owner
# was let through nothing (no grant, no bracket placed); protected, it was,
# by a grant or its brackets; either way nothing was recorded
expect_counted() {
	local g1
	g1=$(owner_access "$2")
	if [ "$1" = off ]; then
		expect_eq "unprotected $5: no $2 grant" "$g1" "$3"
	else
		[ "$g1" -gt "$3" ] || fail "protected $5: no $2 access ($3 -> $g1)"
		echo "ok: protected $5: $((g1 - $3)) $2 grants and bracket openings"
	fi
	expect_eq "no stray recorded ($1 $5)" "$(last_seq)" "$4"
}

# readback: drop the page cache, read ahead, then read the 16 MiB back
readback() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	xfs_io -r -c "fadvise -w 0 16m" -c "readahead 0 16m" "/dev/$blk" \
		> /dev/null || fail "fadvise and readahead on /dev/$blk"
	dd if="/dev/$blk" bs=1M count=16 2>/dev/null | md5sum
}

for prot in off on; do
	[ $prot = on ] && { pkstool enable "$blk" >/dev/null || fail "enable"; }
	seq0=$(last_seq) g0=$(owner_access pmem-driver)
	expect_eq "buffered read-back ($prot)" "$(readback)" "$want"
	expect_counted $prot pmem-driver "$g0" "$seq0" "read-back"
done
pkstool disable "$blk" >/dev/null || fail "disable"

# Reflink, then unshare, on xfs with DAX.
mkdir -p /mnt
mkfs.xfs -q -f -m reflink=1 "/dev/$blk" || fail "mkfs.xfs"
mount -t xfs -o dax=always "/dev/$blk" /mnt || fail "mount xfs"
for prot in off on; do
	rm -f /mnt/a /mnt/b
	xfs_io -f -c "pwrite -q -i /tmp/raw 0 16m" -c fsync /mnt/a || fail "write a"
	# Every supported kernel reflinks under DAX: a refusal is a failure.
	xfs_io -f -c "reflink /mnt/a 0 0 16m" /mnt/b > /tmp/reflink.log 2>&1 ||
		fail "reflink ($prot): $(cat /tmp/reflink.log)"
	[ $prot = on ] && { pkstool enable "$blk" >/dev/null || fail "enable"; }
	seq0=$(last_seq) g0=$(owner_access dax-layer)
	xfs_io -c "funshare 0 16m" -c fsync /mnt/b || fail "funshare ($prot)"
	expect_eq "unshared data ($prot)" "$(md5sum < /mnt/b)" "$want"
	expect_eq "source data ($prot)" "$(md5sum < /mnt/a)" "$want"
	expect_counted $prot dax-layer "$g0" "$seq0" "unshare"
done
umount /mnt || fail "umount"
xfs_repair -n "/dev/$blk" > /tmp/repair.log 2>&1 || fail "xfs_repair: $(cat /tmp/repair.log)"
pkstool disable "$blk" >/dev/null
exit 0
