# SPDX-License-Identifier: GPL-2.0
# boot: own
# pks: an interrupt is judged by its own code, never by the code it
# interrupted (issue 30 item 4). A task bound to cpu0 reads and writes a
# file on ext4 -o dax on a protected fsdax namespace in 4 KiB calls (the
# DAX layer and nd_pmem copy, granted by the owner rules), while on cpu0 a
# pinned hrtimer (hard interrupt) and a tasklet (softirq) make fault-safe
# stray writes into a page of the namespace no file uses (past the end of
# the file system): every one is refused and counted as a fault of the
# namespace, and the word keeps its value. The owner rules reach a steady
# state: a second pass of the same I/O formats (almost) no symbol, and no
# judged fault unwinds more than 8 frames. The control runs the same
# strays with the driver judging interrupts as before (the interrupted
# context's frames count, pks_legit_context_enforce(false)): some land,
# or the check could not fail. The owner's copy brackets are off for the
# case (a test knob): with them the file I/O takes no fault at all, and
# it is the fault rule's judgement of an interrupt that is tested here.
. /tests/lib.sh

ROUNDS=1500

pks_ready
pks-ioctl brackets-on 0 || fail "cannot turn the brackets off"
trap 'pks-ioctl brackets-on 1' EXIT
ext4_dax_stray_target 8 0x100

# grant N: a grants field of pkstool info (.rules[] by name, or a count)
grants() {
	case $1 in
	dax-layer | pmem-driver) rule_grants "$1" ;;
	*) info_json ".grants.$1" ;;
	esac
}

# io_pass: one pass of 4 KiB reads and writes of /mnt/f, on cpu0
io_pass() {
	taskset -c 0 dd if=/mnt/f of=/mnt/f bs=4k conv=notrunc 2>/dev/null
}

# The worker: passes on cpu0 until told to stop.
worker_start() {
	rm -f /tmp/irqstray.stop
	taskset -c 0 sh -c 'while [ ! -e /tmp/irqstray.stop ]; do
		dd if=/mnt/f of=/mnt/f bs=4k conv=notrunc 2>/dev/null ||
			exit 1
	done' &
	WORKER=$!
	sleep 1
}
worker_stop() {
	touch /tmp/irqstray.stop
	wait "$WORKER" || fail "the worker's I/O failed"
}

# strays [control]: the strays on cpu0, from cpu1; sets the counts
strays() {
	irq_strays "$target" "$ROUNDS" "$@"
}

# Warm up, then a second pass: the owner verdicts are cached.
io_pass || fail "first pass"
l0=$(grants symbol_lookups) f0=$(grants frames_unwound)
d0=$(grants dax-layer) p0=$(grants pmem-driver) h0=$(rule_grants held-page)
io_pass || fail "second pass"
l1=$(grants symbol_lookups) f1=$(grants frames_unwound)
d1=$(grants dax-layer) p1=$(grants pmem-driver) h1=$(rule_grants held-page)
owner=$((d1 - d0 + p1 - p0)) judged=$((d1 - d0 + p1 - p0 + h1 - h0))
echo "second pass: $((d1 - d0)) dax-layer, $((p1 - p0)) pmem-driver, $((h1 - h0)) held-page grants, $((l1 - l0)) symbol lookups, $((f1 - f0)) frames unwound"
[ $owner -ge 100 ] || fail "second pass: only $owner owner grants: the file I/O did not fault"
[ $((l1 - l0)) -le 8 ] || fail "second pass: $((l1 - l0)) symbol lookups for $owner owner grants: no steady state"
[ $((f1 - f0)) -le $((8 * judged)) ] ||
	fail "second pass: $((f1 - f0)) frames unwound for $judged grants: more than 8 each"
echo "ok: steady state: $((l1 - l0)) symbol lookups, $((f1 - f0)) frames for $judged grants"

# The strays, refused.
faults0=$(ns_json "$FSDAX_NS" .faults)
worker_start
strays
worker_stop
expect_eq "hard interrupt strays landed" "$hardirq_landed" 0
expect_eq "softirq strays landed" "$softirq_landed" 0
expect_eq "hard interrupt strays refused" "$hardirq_refused" $ROUNDS
[ "$softirq_refused" -gt 0 ] || fail "no softirq stray ran"
[ "$hardirq_in_kernel" -gt 0 ] || fail "no stray interrupted the kernel"
expect_eq "namespace faults counted" "$(ns_json "$FSDAX_NS" .faults)" \
	$((faults0 + hardirq_refused + softirq_refused))
expect_eq "the stray word" "$(pks-ioctl guarded-read $target)" "$word0"
expect_eq "file data" "$(md5sum < /mnt/f)" "$want"
d2=$(grants dax-layer) p2=$(grants pmem-driver)
echo "ok: $hardirq_refused hard interrupt and $softirq_refused softirq strays refused, $hardirq_in_kernel of them in the kernel, while the task got $((d2 - d1 + p2 - p1)) owner grants"

# The control: judged as before, strays that interrupted the DAX layer or
# nd_pmem land. Up to three runs, as where an interrupt lands is chance.
hl=0 sl=0
for run in 1 2 3; do
	worker_start
	strays control
	worker_stop
	hl=$((hl + hardirq_landed)) sl=$((sl + softirq_landed))
	[ $hl -gt 0 ] && [ $sl -gt 0 ] && break
done
[ $hl -gt 0 ] || fail "control: no hard interrupt stray landed: the check cannot fail"
[ $sl -gt 0 ] || fail "control: no softirq stray landed: the check cannot fail"
# A control of an earlier boot of this run may have left the value.
[ "$word0" = 0xbadbadbadbadbad0 ] ||
	[ "$(pks-ioctl guarded-read $target)" = 0xbadbadbadbadbad0 ] ||
	fail "control: the stray word kept its value"
echo "ok: control: $hl hard interrupt and $sl softirq strays landed"
expect_eq "file data after the control" "$(md5sum < /mnt/f)" "$want"

pkstool disable "$blk" >/dev/null || fail "disable"
umount /mnt || fail "umount"
e2fsck -fn "/dev/$blk" > /tmp/fsck.out 2>&1 || { cat /tmp/fsck.out; fail "fsck"; }
exit 0
