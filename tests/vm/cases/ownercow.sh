# SPDX-License-Identifier: GPL-2.0
# pks: the DAX layer's copy-on-write copies take no fault (issue 29 item
# 1). On a protected fsdax namespace under xfs -o dax=always with reflink,
# for N pages each:
# - 4 KiB pwrites into a reflinked file: each first copies the shared
#   block into the new one (dax_iomap_copy_around(), dax_iomap_cow_copy()
#   on 6.1);
# - a store through a shared mapping of another reflinked file: the write
#   fault copies the shared page (dax_fault_iter());
# - a store through a private mapping of the source: the write fault
#   copies the page into an anonymous one (dax_fault_iter(), which holds
#   the stock kernel's inlined copy_cow_page_dax());
# the right data, no fault-probe hit, and at least one bracket opening per
# page (driver/ownercopy.c). Control, the same boot: with the brackets off
# (the test module's knob) the same operations fault at least once per
# page, the dax-layer rule grants them, and the data is the same. Nothing
# is recorded as a stray, and xfs_repair finds the file system clean.
. /tests/lib.sh

pks_ready none
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
[ -b "/dev/$blk" ] || fail "no fsdax block device"
N=${OWNERCOW_N:-64}
len=$((N * 4096))
dd if=/dev/urandom of=/tmp/cow-old bs=4096 count="$N" 2>/dev/null
dd if=/dev/urandom of=/tmp/cow-new bs=4096 count="$N" 2>/dev/null
old=$(md5sum < /tmp/cow-old)
nmi_watchdog_off
trap 'umount /mnt 2>/dev/null; pkstool disable "$blk" >/dev/null 2>&1
	pks-ioctl brackets-on 1; nmi_watchdog_back' EXIT

mkdir -p /mnt
mkfs.xfs -q -f -m reflink=1 "/dev/$blk" || fail "mkfs.xfs"
mount -t xfs -o dax=always,noatime "/dev/$blk" /mnt || fail "mount xfs"
pkstool enable "$blk" >/dev/null || fail "enable $blk"
for f in dax_fault_iter "dax_iomap_c[a-z_]*"; do
	pks-ioctl brackets | grep -q "^$f .* placed=1 " ||
		fail "no bracket on $f"
done

# counted BRACKETS WHAT CMD...: run CMD, then judge the fault-probe hits,
# dax-layer grants and bracket openings it took for its N pages
counted() {
	local on=$1 what=$2 h0 d0 o0 s0 h d o
	shift 2
	h0=$(info_json .grants.fault_probe_hits) d0=$(rule_grants dax-layer)
	o0=$(bracket_opens dax-layer) s0=$(last_seq)
	"$@" > /tmp/cow.log 2>&1 || { cat /tmp/cow.log; fail "$what: $*"; }
	h=$(( $(info_json .grants.fault_probe_hits) - h0 ))
	d=$(( $(rule_grants dax-layer) - d0 ))
	o=$(( $(bracket_opens dax-layer) - o0 ))
	echo "$what (brackets $on): $h faults, $d dax-layer grants, $o openings"
	if [ "$on" = 1 ]; then
		expect_eq "$what: faults with the brackets" "$h" 0
		[ "$o" -ge "$N" ] || fail "$what: $o bracket openings for $N pages"
	else
		expect_eq "$what: openings with the brackets off" "$o" 0
		[ "$h" -ge "$N" ] || fail "$what control: $h faults for $N pages"
		[ "$d" -ge "$N" ] ||
			fail "$what control: $d dax-layer grants for $N pages"
	fi
	expect_eq "$what: nothing recorded" "$(last_seq)" "$s0"
}

for on in 1 0; do
	pks-ioctl brackets-on "$on" || fail "brackets-on $on"
	rm -f /mnt/a /mnt/b /mnt/c
	xfs_io -f -c "pwrite -q -i /tmp/cow-old 0 $len" -c fsync /mnt/a ||
		fail "write a"
	for f in b c; do
		xfs_io -f -c "reflink /mnt/a 0 0 $len" "/mnt/$f" > /dev/null ||
			fail "reflink a to $f"
	done
	sync
	counted "$on" "CoW pwrites" xfs_io -c "pwrite -q -b 4096 -i /tmp/cow-new 0 $len" /mnt/b
	expect_eq "CoW pwrites: new data ($on)" "$(md5sum < /mnt/b)" \
		"$(md5sum < /tmp/cow-new)"
	counted "$on" "shared-mapping CoW faults" pks-fileops mapcow shared /mnt/c "$N"
	counted "$on" "private-mapping CoW faults" pks-fileops mapcow private /mnt/a "$N"
	expect_eq "the source is unchanged ($on)" "$(md5sum < /mnt/a)" "$old"
done
pks-ioctl brackets-on 1 || fail "brackets on"

umount /mnt || fail "umount"
pkstool disable "$blk" >/dev/null || fail "disable"
xfs_repair -n "/dev/$blk" > /tmp/repair.log 2>&1 ||
	fail "xfs_repair: $(cat /tmp/repair.log)"
exit 0
