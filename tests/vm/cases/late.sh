# SPDX-License-Identifier: GPL-2.0
# pks: unrelated work pays nothing, and a call that began before the
# protection did is served like any other. With dax0.0 protected:
# - 100,000 pipe reads of data that is not protected make no driver event:
#   no fault-probe hit, no grant, no task holding one, no module reference;
# - a reader asleep in pipe_read() since before the first enable gets the
#   right data from the protected mapping (its copy is judged when it
#   faults: the page is held by the pipe), nothing is recorded as a stray;
# - rmmod pks succeeds while a process sleeps in pipe_read(), and the
#   namespace is released. The control: a reader of /dev/pks itself (a
#   monitor) does hold the module, and rmmod refuses while it runs.
. /tests/lib.sh

pks_ready none

# counters: fault-probe hits, grants under every rule, tasks granted
counters() {
	pkstool info --json | jq -r '.[0].grants |
		"\(.fault_probe_hits) \([.rules[] | .task + .softirq + .hardirq + .stepped] | add) \(.tasks_granted)"'
}
# count N: the Nth of counters
count() {
	counters | cut -d' ' -f"$1"
}

pkstool enable dax0.0 >/dev/null || fail "enable"
hits0=$(count 1) grants0=$(count 2)
refs0=$(cat /sys/module/pks/refcnt)
# busybox dd: 100,000 one-byte writes into a pipe, 100,000 reads from it.
dd if=/dev/zero bs=1 count=100000 2>/dev/null | dd of=/dev/null bs=1 2>/tmp/pipe.out ||
	fail "pipe reads: $(cat /tmp/pipe.out)"
grep -q '^100000+0 records in' /tmp/pipe.out || fail "pipe reads: $(cat /tmp/pipe.out)"
hits1=$(count 1) grants1=$(count 2) tasks1=$(count 3)
expect_eq "fault-probe hits for 100,000 unrelated pipe reads" $((hits1 - hits0)) 0
expect_eq "grants for them" $((grants1 - grants0)) 0
expect_eq "tasks holding a grant" "$tasks1" 0
expect_eq "module references" "$(cat /sys/module/pks/refcnt)" "$refs0"
pkstool disable dax0.0 >/dev/null || fail "disable"

# A reader asleep in pipe_read() before the protection started.
rm -f /tmp/ready /tmp/go
pks-late /dev/dax0.0 /tmp/ready /tmp/go &
pid=$!
n=0
until [ -e /tmp/ready ]; do
	n=$((n + 1))
	[ $n -lt 300 ] || fail "pks-late never got ready"
	sleep 0.1
done
pkstool enable dax0.0 >/dev/null || fail "enable"
seq0=$(last_seq)
held0=$(count 2)
touch /tmp/go
wait $pid
expect_eq "reader that began before the protection" "$?" 0
held1=$(count 2)
[ "$held1" -gt "$held0" ] || fail "its copy was not judged ($held0 -> $held1 grants)"
expect_eq "nothing recorded as a stray" "$(last_seq)" "$seq0"
# A stray from no reader at all is still refused.
pks-ioctl stray $((DAX_START + 0x1000)) write >/dev/null
expect_eq "stray write" "$?" 14

# rmmod with a reader asleep in pipe_read() (on an empty pipe that nothing
# feeds): it holds nothing of the driver's.
rmmod pks_test || fail "rmmod pks_test"
mkfifo /tmp/fifo
cat /tmp/fifo > /dev/null &
reader=$!
exec 9> /tmp/fifo
# Wait (10 s at most) until the reader really sleeps in pipe_read().
n=0
until grep -q pipe_read "/proc/$reader/stack" "/proc/$reader/wchan" 2>/dev/null; do
	n=$((n + 1))
	[ $n -lt 100 ] || fail "the reader never slept in pipe_read() (wchan: $(cat "/proc/$reader/wchan" 2>/dev/null))"
	sleep 0.1
done
# The control: a monitor holds /dev/pks open, and that does pin the module.
pkstool monitor > /dev/null &
mon=$!
n=0
until [ "$(cat /sys/module/pks/refcnt)" -gt 0 ]; do
	n=$((n + 1))
	[ $n -lt 100 ] || fail "control: the monitor never held the module"
	sleep 0.1
done
rmmod pks 2>/dev/null && fail "control: rmmod succeeded under a monitor"
echo "ok: control: rmmod refused while a monitor holds /dev/pks"
kill $mon
wait $mon 2>/dev/null
n=0
until [ "$(cat /sys/module/pks/refcnt)" = 0 ]; do
	n=$((n + 1))
	[ $n -lt 100 ] || fail "the monitor's reference never went"
	sleep 0.1
done
kill -0 $reader || fail "the reader is gone before rmmod"
rmmod pks || fail "rmmod pks with a reader asleep in pipe_read()"
echo "ok: rmmod pks with a reader asleep in pipe_read()"
[ -e /dev/pks ] && fail "/dev/pks still there"
exec 9>&-
wait $reader
load_pks
expect_eq "no range left after the reload" \
	"$(info_json '.accounting.ranges')" 0
exit 0
