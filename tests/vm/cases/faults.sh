# SPDX-License-Identifier: GPL-2.0
# pks: a stray read and a stray write into a strict namespace each give
# exactly one record with the right address, offset, access and task, and
# a kernel report in the documented format; the data is unchanged;
# pkstool monitor, started first, receives the fault; list counts them.
# The control: with protection off the same stray write lands, unrecorded.
# require-kmsg: pks: stray read to dax0\.0\+0x1000 \(key [0-9]+\): refused, seq [0-9]+
# require-kmsg: pks: stray write to dax0\.0\+0x2008 \(key [0-9]+\): refused, seq [0-9]+
# require-kmsg: pks:   at [a-z_]+\+0x[0-9a-f]+/0x[0-9a-f]+.* by pks-ioctl\[[0-9]+\] on cpu[0-9]+, address [0-9a-f]+
# require-kmsg: pks:   stack: [a-z_]+\+0x
. /tests/lib.sh

quiet_fault_log
pks_ready enable
key=$(ns_json "$DAX_NS" .key)
before=$(pks-ioctl guarded-read $((DAX_START + 0x2008))) || fail "guarded read"
seq0=$(last_seq)

monitor_start
out=$(pks-ioctl stray $((DAX_START + 0x1000)) read)
expect_eq "stray read" "$?" 14
out=$(pks-ioctl stray $((DAX_START + 0x2008)) write)
expect_eq "stray write" "$?" 14
monitor_stop

expect_eq "data after the stray write" "$(pks-ioctl guarded-read $((DAX_START + 0x2008)))" "$before"
expect_strays "$seq0" read:0x1000 write:0x2008
json=$RECORDS
expect_eq "read record key" "$(echo "$json" | jq '.[0].key')" "$key"
# The two records' addresses are as far apart as the offsets strayed to.
expect_eq "address distance" \
	"$(printf '%#x' $(( $(echo "$json" | jq -r '.[1].address') - $(echo "$json" | jq -r '.[0].address') )))" \
	"$(printf '%#x' $((0x2008 - 0x1000)))"
expect_eq "write address in its page" \
	"$(printf '%#x' $(( $(echo "$json" | jq -r '.[1].address') & 0xfff )))" 0x8
# Text for people: one line per record, starting with its time.
text=$(pkstool faults --since $((seq0 + 1))) || fail "pkstool faults (text)"
echo "$text"
expect_eq "text records" "$(echo "$text" | wc -l)" 2
echo "$text" | sed -n 2p | grep -Eq "^20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z $((seq0 + 2)) cpu[0-9]+ pks-ioctl\[[0-9]+\] write dax0.0\+0x2008 key $key refused at pks_can_write" ||
	fail "text record: $text"
echo "$json" | jq -e '.[1].stack[0] | test("^pks_stray_(copy|access)\\+0x")' >/dev/null ||
	fail "write record stack does not start at its caller"
expect_eq "faults for the fsdax namespace" "$(pkstool faults --json "$FSDAX_NS" | jq length)" 0
# The filter keeps the namespace's own records, by any of its names.
for name in dax0.0 "$DAX_NS"; do
	expect_eq "faults for $name" \
		"$(pkstool faults --json --since $((seq0 + 1)) "$name" | jq -r '[.[].seq] | join(",")')" \
		"$((seq0 + 1)),$((seq0 + 2))"
done

sed -n 1p /tmp/monitor.log | jq -e '.timestamp | test("^20[0-9-]+T[0-9:.]+Z$")' >/dev/null ||
	fail "monitor timestamp"

# As a daemon, logging text to a file, until SIGTERM.
pkstool monitor --daemon --log /tmp/daemon.log || fail "monitor --daemon"
sleep 1
pid=$(pidof pkstool) || fail "no monitor daemon running"
pks-ioctl stray $((DAX_START + 0x2010)) write >/dev/null
sleep 1
kill -TERM $pid
sleep 1
pidof pkstool >/dev/null && fail "the daemon did not stop on SIGTERM"
cat /tmp/daemon.log
expect_eq "daemon events" "$(wc -l < /tmp/daemon.log)" 1
grep -Eq "^20[0-9-]+T[0-9:.]+Z fault [0-9]+ cpu[0-9]+ pks-ioctl\[[0-9]+\] write dax0.0\+0x2010 key $key refused" /tmp/daemon.log ||
	fail "daemon text event"
expect_rc 2 pkstool monitor --daemon

# faults --follow prints what exists, then new records, until SIGTERM.
next=$(( $(last_seq) + 1 ))
pkstool faults --follow --json --since "$next" > /tmp/follow.out &
follower=$!
sleep 1
pks-ioctl stray $((DAX_START + 0x2018)) write >/dev/null
sleep 2
kill -TERM $follower
wait $follower
expect_eq "faults --follow exit after SIGTERM" "$?" 0
cat /tmp/follow.out
# JSON lines: one object per line, never an array.
expect_eq "followed lines" "$(wc -l < /tmp/follow.out)" 1
expect_eq "followed record" "$(jq -r '[type, .seq, .offset] | join(" ")' /tmp/follow.out)" \
	"object $next 0x2018"

out=$(pkstool faults --since nope 2>&1)
expect_eq "bad --since" "$?" 2
expect_rc 1 pkstool faults no-such-ns
expect_tests_pass unclaimed
pkstool disable dax0.0 || fail "disable"

# Control: the same stray write with protection off lands, unrecorded.
seq1=$(last_seq)
[ "$before" != $STRAY_VALUE ] || fail "the word held the stray's value before"
expect_rc 0 pks-ioctl stray $((DAX_START + 0x2008)) write
expect_eq "control: the word after the stray" \
	"$(unprotected_read $((DAX_START + 0x2008)))" $STRAY_VALUE
expect_eq "control: no record" "$(last_seq)" "$seq1"
exit 0
