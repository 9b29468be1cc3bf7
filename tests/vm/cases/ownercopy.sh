# SPDX-License-Identifier: GPL-2.0
# pks: the namespace's owner copies without a fault (issue 29 item 1). On
# a protected fsdax namespace (strict), under ext4 -o dax and then xfs -o
# dax=always: N 4 KiB pwrites and preads of a file, 8 of 1 MiB each, N
# 4 KiB O_DIRECT reads of the block device and a sync (the journal goes
# through the pmem driver): the right data, and the fault probe saw no
# fault at all (no rule granted anything) while the owner's copy brackets
# (driver/ownercopy.c) opened the key at least once per call. Control, the
# same boot: with the brackets turned off (the test module's knob) the
# same I/O takes at least one fault per call, each granted by the
# dax-layer or pmem-driver rule, and the data is still right. Strays
# into a namespace page no file uses are refused while the I/O runs in
# another process. The data is checked by reading it back after each
# measurement. A busy task shares the I/O's CPU during the measurements:
# a kernel that preempts kernel code (PREEMPT_LAZY, Debian's default
# from 6.18 on) switches the copies out inside their brackets, which must
# keep the key across the switch (on a voluntary-preemption kernel, 6.1
# and 6.12, the copies are not preempted).
. /tests/lib.sh

pks_ready none
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
[ -b "/dev/$blk" ] || fail "no fsdax block device"
start=$(ns_json "$FSDAX_NS" .resource)
size=$(blockdev --getsize64 "/dev/$blk")
N=${OWNERCOPY_N:-200}
mkdir -p /mnt
dd if=/dev/urandom of=/tmp/src bs=1M count=8 2>/dev/null
head -c $((N * 4096)) /tmp/src > /tmp/src4k
nmi_watchdog_off

# counts: fault-probe hits, dax-layer, pmem-driver, held-page grants,
# bracket openings
counts() {
	echo "$(info_json .grants.fault_probe_hits) $(rule_grants dax-layer)" \
	     "$(rule_grants pmem-driver) $(rule_grants held-page) $(bracket_opens)"
}
# delta BEFORE AFTER I: how much the I-th count grew
delta() {
	local a b
	a=$(echo "$1" | cut -d' ' -f"$3") b=$(echo "$2" | cut -d' ' -f"$3")
	echo $((b - a))
}

# io: the measured I/O: N 4 KiB pwrites then preads of /mnt/f, 8 x 1 MiB
# of each at 8 MiB, N 4 KiB O_DIRECT preads of the block device, a sync:
# 2N + 16 file calls, N block reads. xfs_io's buffers are written before
# its first call: a page fault on the user buffer inside a bracket may
# switch the task out, which ends the bracket (the rest of that call then
# faults and is granted by the rule, as it should).
io() {
	xfs_io -c "pwrite -q -b 4096 -i /tmp/src4k 0 $((N * 4096))" \
		-c "pwrite -q -b 1m -i /tmp/src 8m 8m" /mnt/f ||
		fail "pwrites"
	xfs_io -r -c "pread -b 4096 0 $((N * 4096))" -c "pread -b 1m 8m 8m" \
		/mnt/f > /dev/null || fail "preads"
	xfs_io -d -r -c "pread -b 4096 0 $((N * 4096))" "/dev/$blk" \
		> /dev/null || fail "O_DIRECT preads of /dev/$blk"
	sync
}
# verify: what the pwrites wrote reads back (after the measurement)
verify() {
	head -c $((N * 4096)) /mnt/f | cmp -s - /tmp/src4k ||
		fail "$1: 4 KiB data read back differs"
	dd if=/mnt/f bs=1M skip=8 count=8 2>/dev/null | cmp -s - /tmp/src ||
		fail "$1: 1 MiB data read back differs"
}
# A failure leaves nothing mounted, protected or turned off for the
# cases after this one.
trap 'hog_stop; umount /mnt 2>/dev/null
	pkstool disable "$blk" >/dev/null 2>&1; pks-ioctl brackets-on 1
	nmi_watchdog_back' EXIT

# hog_start, hog_stop: this shell (so the I/O) and a busy loop on CPU 0
hog=
hog_start() {
	taskset -pc 0 $$ > /dev/null || fail "pin the I/O to CPU 0"
	taskset -c 0 sh -c 'while :; do :; done' &
	hog=$!
}
hog_stop() {
	[ -n "$hog" ] && kill "$hog" 2>/dev/null && wait "$hog" 2>/dev/null
	hog=
	taskset -pc 0-$(($(nproc) - 1)) $$ > /dev/null
}

for fs in ext4 xfs; do
	case $fs in
	ext4) mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 \
		"/dev/$blk" && mount -t ext4 -o dax,noatime "/dev/$blk" /mnt ;;
	xfs) mkfs.xfs -q -f "/dev/$blk" &&
		mount -t xfs -o dax=always,noatime "/dev/$blk" /mnt ;;
	esac || fail "$fs: mkfs and mount"
	expect_eq "$fs: no bracket placed unprotected" \
		"$(pks-ioctl brackets | grep -c 'placed=1')" 0
	pkstool enable "$blk" >/dev/null || fail "$fs: enable $blk"
	pks-ioctl brackets
	for f in dax_copy_from_iter dax_copy_to_iter pmem_submit_bio; do
		pks-ioctl brackets | grep -q "^$f .* placed=1 " ||
			fail "$fs: no bracket on $f"
	done
	# The file's blocks exist before the measurement: allocation and
	# zeroing of new blocks is the file system's, not measured here.
	dd if=/dev/zero of=/mnt/f bs=1M count=16 conv=fsync 2>/dev/null ||
		fail "$fs: create the file"
	sync

	hog_start
	c0=$(counts) seq0=$(last_seq)
	io
	c1=$(counts)
	hog_stop
	verify "$fs"
	echo "$fs brackets on: hits dax pmem held opens: $c0 -> $c1"
	expect_eq "$fs: fault-probe hits with the brackets" "$(delta "$c0" "$c1" 1)" 0
	expect_eq "$fs: dax-layer grants with the brackets" "$(delta "$c0" "$c1" 2)" 0
	expect_eq "$fs: pmem-driver grants with the brackets" "$(delta "$c0" "$c1" 3)" 0
	n=$(delta "$c0" "$c1" 5)
	[ "$n" -ge $((3 * N + 16)) ] ||
		fail "$fs: $n bracket openings for $((3 * N + 16)) calls"
	echo "ok: $fs: $n bracket openings, no fault"
	expect_eq "$fs: nothing recorded" "$(last_seq)" "$seq0"

	# Control: the brackets off, each call faults and is granted.
	pks-ioctl brackets-on 0 || fail "brackets off"
	hog_start
	c0=$(counts)
	io
	c1=$(counts)
	hog_stop
	pks-ioctl brackets-on 1 || fail "brackets on"
	verify "$fs control"
	echo "$fs brackets off: hits dax pmem held opens: $c0 -> $c1"
	expect_eq "$fs control: no bracket opening" "$(delta "$c0" "$c1" 5)" 0
	d=$(delta "$c0" "$c1" 2) p=$(delta "$c0" "$c1" 3) h=$(delta "$c0" "$c1" 1)
	[ "$d" -ge $((2 * N + 16)) ] ||
		fail "$fs control: $d dax-layer grants for $((2 * N + 16)) file calls"
	[ "$p" -ge "$N" ] ||
		fail "$fs control: $p pmem-driver grants for $N block reads"
	[ "$h" -ge $((3 * N + 16)) ] ||
		fail "$fs control: $h faults for $((3 * N + 16)) calls"
	echo "ok: $fs control: $h faults, $d dax-layer and $p pmem-driver grants"
	expect_eq "$fs control: nothing recorded" "$(last_seq)" "$seq0"

	# Strays into the namespace's last pages (no file uses them: the
	# file system is nearly empty) while another process copies, until
	# the strays are done.
	rm -f /tmp/strays-done
	( while [ ! -e /tmp/strays-done ]; do io; verify "$fs strays"; done ) &
	iopid=$!
	seq1=$(last_seq) refused=0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		pks-ioctl stray $((start + size - 4096 * i - 0x40)) write > /dev/null
		[ $? = 14 ] && refused=$((refused + 1))
		sleep 0.1
	done
	touch /tmp/strays-done
	wait $iopid || fail "$fs: the I/O beside the strays"
	expect_eq "$fs: strays refused while copying" "$refused" 10
	expect_eq "$fs: strays recorded" "$(( $(last_seq) - seq1 ))" 10

	pkstool disable "$blk" >/dev/null || fail "$fs: disable"
	expect_eq "$fs: no bracket placed after disable" \
		"$(pks-ioctl brackets | grep -c 'placed=1')" 0
	umount /mnt || fail "$fs: umount"
	case $fs in
	ext4) e2fsck -fn "/dev/$blk" > /tmp/fsck.log 2>&1 ;;
	xfs) xfs_repair -n "/dev/$blk" > /tmp/fsck.log 2>&1 ;;
	esac || { cat /tmp/fsck.log; fail "$fs: check after the strays"; }
done
nmi_watchdog_back
exit 0
