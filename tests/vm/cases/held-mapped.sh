# SPDX-License-Identifier: GPL-2.0
# pks: the held-page rule means held for I/O, not mapped (issue 31).
# Since 6.15 every page-table mapping of a DAX page holds a reference,
# so "a count above the pagemap's" would call every mapped page held and
# grant every stray into it. With dax0.0 protected (strict) and its first
# page mapped and written by a process (pks-maphold), a stray kernel
# write into that page is refused, its data stays, and the held-page rule
# grants nothing. The control, proving the case can fail: the same stray
# while the process also holds the page in a pipe (vmsplice: held for
# I/O) is granted by the held-page rule.
# Cases share a boot: start from an unloaded driver.
. /tests/lib.sh

pks_ready none
expect_rc 0 pkstool enable dax0.0
addr=$((DAX_START + 0x1000))

# hold_start [pin]: pks-maphold on dax0.0, waited for; sets HOLD_PID
hold_start() {
	local i
	rm -f /tmp/maphold.ready
	pks-maphold /dev/dax0.0 /tmp/maphold.ready "$@" &
	HOLD_PID=$!
	for i in $(seq 100); do
		[ -e /tmp/maphold.ready ] && return 0
		kill -0 $HOLD_PID 2>/dev/null || fail "pks-maphold $* died"
		sleep 0.1
	done
	fail "pks-maphold $* never got ready"
}

hold_stop() {
	kill $HOLD_PID
	wait $HOLD_PID 2>/dev/null
}

hold_start
g0=$(rule_grants held-page)
expect_rc 14 pks-ioctl stray $addr write
expect_eq "held-page grants for a mapped, unpinned page" \
	"$(rule_grants held-page)" "$g0"
hold_stop
expect_rc 0 pkstool disable dax0.0
expect_eq "the page's data after the refused stray" \
	"$(unprotected_read $addr)" 0x5a5a5a5a5a5a5a5a
expect_rc 0 pkstool enable dax0.0

# The control: held for I/O as well, the same stray is granted.
hold_start pin
g0=$(rule_grants held-page)
expect_rc 0 pks-ioctl stray $addr write
g1=$(rule_grants held-page)
[ "$g1" -gt "$g0" ] || fail "control: held-page grants $g0 -> $g1 for a pinned page"
echo "ok: control: the stray into the pinned page was granted (held-page $g0 -> $g1)"
hold_stop

expect_rc 0 pkstool disable dax0.0
nothing_held || fail "something is still held"
unload_pks
exit 0
