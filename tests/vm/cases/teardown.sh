# SPDX-License-Identifier: GPL-2.0
# pks: the driver, and the modules under it, come and go under load.
# - rmmod pks while ext4, then xfs, -o dax on a protected fsdax namespace
#   has a writer and a reader running: the unload succeeds, the writer
#   goes on across it, every file has its data, fsck is clean, nothing
#   oopses. Right before each unload a stray into the namespace is refused
#   (the control: it was protected while the I/O ran).
# - a DAX-capable dm-linear over the pmem disk is refused by the driver
#   itself, with the reason, and the driver answers afterwards.
# - nd_pmem unloaded and loaded again under a loaded driver: the fsdax
#   namespace is protected again and a file system's journal and data go
#   through it (the pmem-driver and dax-layer rules grant them).
# - libnvdimm and everything on it unloaded and loaded again: the driver
#   forgets the old nd bus, watches the new one (a disabled namespace's
#   protection is released), and unloads cleanly.
# boot: own
# require-kmsg: pks: libnvdimm unloaded: its bus nd is no longer watched
# require-kmsg: pks: pmem[0-9.]+ is going away while protected: releasing it
. /tests/lib.sh

pks_ready
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
ns=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .dev')
[ -b "/dev/$blk" ] || fail "no fsdax block device"
mkdir -p /mnt
dd if=/dev/urandom of=/tmp/pattern bs=64k count=4 2>/dev/null
want=$(md5sum < /tmp/pattern)

# io_start: a writer rewriting /mnt/w.N with the pattern (each fsync'ed)
# and a reader reading them, until /tmp/stop appears.
io_start() {
	rm -f /tmp/stop /tmp/wcount
	i=0
	while [ $i -lt 8 ]; do
		cp /tmp/pattern /mnt/w.$i || fail "seed w.$i"
		i=$((i + 1))
	done
	sync
	( i=0
	  while [ ! -e /tmp/stop ]; do
		dd if=/tmp/pattern of=/mnt/w.$((i % 8)) bs=64k conv=fsync \
			2>/dev/null || exit 1
		i=$((i + 1))
		echo $i > /tmp/wcount
	  done ) &
	writer=$!
	( while [ ! -e /tmp/stop ]; do cat /mnt/w.* > /dev/null; done ) &
	reader=$!
}
wcount() {
	cat /tmp/wcount 2>/dev/null || echo 0
}
# wait_writes N: the writer made N more writes
wait_writes() {
	local from n=0
	from=$(wcount)
	until [ "$(wcount)" -ge $((from + $1)) ]; do
		n=$((n + 1))
		[ $n -lt 600 ] || fail "the writer stopped at $(wcount) writes"
		sleep 0.1
	done
}

for fs in ext4 xfs; do
	case $fs in
	ext4) mkfs.ext4 -q -F -b 4096 "/dev/$blk" &&
	      mount -t ext4 -o dax "/dev/$blk" /mnt ;;
	xfs) mkfs.xfs -q -f "/dev/$blk" &&
	     mount -t xfs -o dax=always "/dev/$blk" /mnt ;;
	esac || fail "$fs: mkfs and mount"
	pkstool enable "$blk" >/dev/null || fail "$fs: enable"
	start=$(ns_json "$ns" .resource)
	io_start
	wait_writes 5
	out=$(pks-ioctl stray $((start + 0x8000000)) write)
	expect_eq "$fs: a stray while the I/O runs" "$?" 14
	rmmod pks_test || fail "$fs: rmmod pks_test"
	rmmod pks || fail "$fs: rmmod pks under I/O"
	echo "ok: $fs: rmmod pks with a writer at $(wcount) writes"
	wait_writes 5
	touch /tmp/stop
	wait $writer || fail "$fs: the writer failed"
	wait $reader
	for f in /mnt/w.*; do
		expect_eq "$fs: $f" "$(md5sum < "$f")" "$want"
	done
	umount /mnt || fail "$fs: umount"
	case $fs in
	ext4) e2fsck -fn "/dev/$blk" > /tmp/fsck.log 2>&1 ;;
	xfs) xfs_repair -n "/dev/$blk" > /tmp/fsck.log 2>&1 ;;
	esac || fail "$fs: fsck: $(cat /tmp/fsck.log)"
	echo "ok: $fs: clean"
	load_pks
done

# A stacked device with DAX over the pmem disk: refused by the driver.
dmsetup create --noudevsync pkslin --table \
	"0 $(blockdev --getsz "/dev/$blk") linear /dev/$blk 0" &&
	dmsetup mknodes pkslin || fail "dmsetup create"
out=$(pks-ioctl protect-blockdev /dev/mapper/pkslin)
expect_eq "protect dm-linear over pmem" "$?" 95
echo "$out" | grep -q "not a pmem namespace's disk" || fail "unclear refusal: $out"
timeout 10 pkstool list > /dev/null || fail "the driver does not answer after the refusal"
dmsetup remove --noudevsync pkslin || fail "dmsetup remove"

# wait_blk: the fsdax block device is back
wait_blk() {
	local n=0
	until [ -b "/dev/$blk" ]; do
		n=$((n + 1))
		[ $n -lt 100 ] || fail "/dev/$blk did not come back"
		sleep 0.1
	done
}
# grants RULE: the driver's count of accesses RULE's owner was let
# through, granted or in its copy brackets
grants() {
	owner_access "$1"
}

# nd_pmem unloaded and loaded again.
pkstool enable "$blk" >/dev/null || fail "enable before the reload"
rmmod dax_pmem 2>/dev/null
rmmod nd_pmem || fail "rmmod nd_pmem"
expect_eq "protection released with nd_pmem" "$(info_json .accounting.ranges)" 0
insmod /lib/modules/nd_pmem.ko || fail "insmod nd_pmem"
insmod /lib/modules/dax_pmem.ko 2>/dev/null
wait_blk
pkstool enable "$blk" >/dev/null || fail "enable after the reload"
p0=$(grants pmem-driver) d0=$(grants dax-layer)
mkfs.ext4 -q -F -b 4096 "/dev/$blk" && mount -t ext4 -o dax "/dev/$blk" /mnt ||
	fail "mkfs and mount after the reload"
cp /tmp/pattern /mnt/after && sync && cat /mnt/after > /dev/null ||
	fail "file I/O after the reload"
expect_eq "data after the reload" "$(md5sum < /mnt/after)" "$want"
umount /mnt
[ "$(grants pmem-driver)" -gt "$p0" ] || fail "no pmem-driver grant after the reload"
[ "$(grants dax-layer)" -gt "$d0" ] || fail "no dax-layer grant after the reload"
pkstool disable "$blk" >/dev/null || fail "disable"

# libnvdimm and everything on it. The NFIT's device keeps nfit in use
# until it is unbound: an ACPI driver's on 6.1 and 6.12, a platform
# driver's on 7.3 (nfit.ko registers a platform_driver there, whose
# name is not plain "nfit").
for d in /sys/bus/acpi/drivers/nfit/ACPI* /sys/bus/platform/drivers/*nfit*/ACPI*; do
	[ -e "$d" ] && echo "${d##*/}" > "${d%/*}/unbind"
done
for m in kmem device_dax dax_pmem nd_pmem nd_btt nfit libnvdimm; do
	grep -q "^$m " /proc/modules && { rmmod $m ||
		fail "rmmod $m: $(grep "^$m " /proc/modules; ls -d /sys/bus/*/drivers/*nfit*/* 2>&1 | tr '\n' ' ')"; }
done
grep -q '^libnvdimm ' /proc/modules && fail "libnvdimm still loaded"
for m in libnvdimm nfit nd_btt nd_pmem dax_pmem device_dax; do
	insmod /lib/modules/$m.ko || fail "insmod $m"
done
wait_blk
pkstool enable "$blk" >/dev/null || fail "enable on the new bus"
ndctl disable-namespace "$ns" >/dev/null || fail "disable-namespace"
expect_eq "protection released on the new bus" "$(info_json .accounting.ranges)" 0
ndctl enable-namespace "$ns" >/dev/null || fail "enable-namespace"
rmmod pks_test || fail "rmmod pks_test"
rmmod pks || fail "rmmod pks after the libnvdimm reload"
load_pks
exit 0
