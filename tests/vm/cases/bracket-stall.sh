# SPDX-License-Identifier: GPL-2.0
# pks: a write held inside the owner's copy bracket, as any user can hold
# one (its buffer a page a userfaultfd, or a FUSE server of its own, never
# fills), does not hold up the last disable: it returns within the
# brackets' 5 s bound while the write still waits, says the brackets stay
# placed, and the write completes with the right data once the page comes.
# A second enable places the brackets again: the file's I/O opens the key
# in them, and no fault of it is judged by a rule. The control is the
# stall itself: the write has not returned while disable ran (so a
# disable that waited for every call would have hung with it).
. /tests/lib.sh

pks_ready none
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
[ -b "/dev/$blk" ] || fail "no fsdax block device"
mkdir -p /mnt
nmi_watchdog_off
# A failure leaves nothing mounted or protected for the cases after it.
trap 'umount /mnt 2>/dev/null; pkstool disable "$blk" >/dev/null 2>&1
	nmi_watchdog_back' EXIT
mkfs.ext4 -q -F -b 4096 "/dev/$blk" || fail "mkfs.ext4"
mount -o dax "/dev/$blk" /mnt || fail "mount -o dax"
head -c 4096 /dev/zero > /mnt/f && sync
pkstool enable "$blk" > /dev/null || fail "enable $blk"

rm -f /tmp/go && mkfifo /tmp/go
pks-stall /mnt/f < /tmp/go > /tmp/stall.out 2> /tmp/stall.err &
stall=$!
exec 3> /tmp/go
n=0
until grep -q '^stalled$' /tmp/stall.out 2>/dev/null; do
	kill -0 $stall 2>/dev/null || fail "pks-stall ended: $(cat /tmp/stall.err)"
	n=$((n + 1))
	[ $n -lt 300 ] || fail "the write never stalled in the kernel's copy"
	sleep 0.1
done

t0=$(date +%s)
out=$(timeout 60 pkstool disable "$blk")
rc=$?
secs=$(( $(date +%s) - t0 ))
expect_eq "disable with a write held in a bracket" "$rc" 0
echo "$out"
[ "$secs" -le 30 ] || fail "disable took ${secs}s"
echo "ok: disable returned in ${secs}s"
grep -q '^written' /tmp/stall.out && fail "control: the write was not held during disable"
echo "ok (control): the write was still held while disable ran"
dmesg | grep -q 'still inside the copy brackets' ||
	fail "the driver did not say the brackets stay placed"

echo go >&3
exec 3>&-
wait $stall || fail "pks-stall: $(cat /tmp/stall.err)"
expect_eq "the held write" "$(cat /tmp/stall.out | tail -n 1)" "written 4096"
expect_eq "its data" "$(head -c 4096 /mnt/f | tr -d S | wc -c)" 0

# Protected again: the brackets are placed again and open for the file.
pkstool enable "$blk" > /dev/null || fail "enable $blk again"
# judged: fault-probe hits that were neither a refill nor a spurious
# fault, the dax-layer rule's grants, and bracket openings so far
judged() {
	echo "$(info_json '.grants | .fault_probe_hits - .refills - .spurious')" \
	     "$(rule_grants dax-layer) $(bracket_opens dax-layer)"
}
j0=$(judged)
dd if=/mnt/f of=/dev/null bs=4096 count=1 iflag=direct 2>/dev/null
head -c 4096 /mnt/f > /dev/null
j1=$(judged)
echo "after the second enable: judged faults, dax-layer grants, openings: $j0 -> $j1"
set -- $j0 $j1
expect_eq "faults judged after the brackets were placed again" $(($4 - $1)) 0
expect_eq "dax-layer grants after the brackets were placed again" $(($5 - $2)) 0
[ $(($6 - $3)) -ge 2 ] || fail "$(($6 - $3)) bracket openings for 2 reads"
pkstool disable "$blk" > /dev/null || fail "disable $blk"
umount /mnt || fail "umount"
exit 0
