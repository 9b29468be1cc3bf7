# SPDX-License-Identifier: GPL-2.0
# pks: running it as a service. An unprivileged user lists and queries
# (not through a root-only device: the control), with kernel and physical
# addresses, per-CPU PKRS and its counters and the grant counts hidden
# (root sees them: the control); stray records and who holds the device
# are root's: the driver refuses them to nobody, who gets the counts, and
# faults, monitor and info say so (root reads them: the control); the monitor reports protection starting, ending and
# its device going away, resumes from its cursor after a restart without
# losing or repeating a record (without the cursor it loses them: the
# control), reopens its log on SIGHUP, and says when fault capture is
# off, which also refuses protection; info names who keeps the module in
# use.
. /tests/lib.sh

nobody() { su -s /bin/sh nobody -c "$*"; }
# wait_for FILE PATTERN: until FILE has a line matching PATTERN (10 s)
wait_for() {
	local n=0
	until grep -q "$2" "$1" 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 100 ] || fail "no '$2' in $1: $(cat "$1" 2>/dev/null)"
		sleep 0.1
	done
}
# start_monitor OUT ARGS...: a monitor that holds /dev/pks open
start_monitor() {
	local out=$1 n=0
	shift
	pkstool monitor "$@" > "$out" 2> "$out.err" &
	mon=$!
	wait_polling $mon "pkstool monitor $*"
}
# stop_monitor: SIGTERM must end the monitor within 5 s (a lost signal
# would leave it waiting for ever)
stop_monitor() {
	local n=0
	kill -TERM $mon
	# Until it is gone or a zombie (exited, not yet waited for).
	while grep -q '^State:[[:space:]]*[^Z]' /proc/$mon/status 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 50 ] || { kill -KILL $mon; fail "the monitor ignored SIGTERM"; }
		sleep 0.1
	done
	wait $mon 2>/dev/null
}

pks_ready none
pkstool enable dax0.0 >/dev/null || fail "enable"

# Queries without root: the same namespaces and protection as root sees.
expect_eq "nobody list" "$(nobody pkstool list --json | jq -c '[.[] | {dev, protected, key}]')" \
	"$(pkstool list --json | jq -c '[.[] | {dev, protected, key}]')"
expect_eq "nobody info keys" "$(nobody pkstool info --json | jq -c '.[0].keys')" \
	"$(pkstool info --json | jq -c '.[0].keys')"
nobody pkstool info | grep -q '^driver: loaded' || fail "nobody info text"
# ... but not the activity: as nobody the driver reads no CPU's registers
# (no IPI) and fills no grant count, and info shows them as not there
# (live and counts false, the values null, "root only" in text), not as
# zeros. As root the same fields are read: the control that these checks
# can fail.
user_info=$(nobody pkstool info --json)
root_info=$(pkstool info --json)
# jq_of JSON FILTER: FILTER over the one object of info --json JSON
jq_of() { echo "$1" | jq -c ".[0] | $2"; }
cpu_vals='[.cpus[] | select(.online) | (.pkrs, .pkrs_cached, .pkrs_writes, .pkrs_writes_skipped | type)] | unique'
grant_vals='[.grants | .tasks_granted, .fault_probe_hits, .refills, .spurious, .boundary_writes, (.rules[] | .task, .softirq, .hardirq, .stepped) | type] | unique'
expect_eq "nobody: cpus live" "$(jq_of "$user_info" '[.cpus[].live] | unique')" '[false]'
expect_eq "nobody: cpu registers and counters" "$(jq_of "$user_info" "$cpu_vals")" '["null"]'
expect_eq "nobody: grants counts" "$(jq_of "$user_info" .grants.counts)" false
expect_eq "nobody: grant counts" "$(jq_of "$user_info" "$grant_vals")" '["null"]'
expect_eq "root: cpus live" "$(jq_of "$root_info" '[.cpus[].live] | unique')" '[true]'
expect_eq "root: cpu registers and counters" "$(jq_of "$root_info" "$cpu_vals")" '["number","string"]'
expect_eq "root: grants counts" "$(jq_of "$root_info" .grants.counts)" true
expect_eq "root: grant counts" "$(jq_of "$root_info" "$grant_vals")" '["number"]'
# What is not activity is the same for both: CR4.PKS (the driver's
# record for nobody, the register for root), armed, hooks, rule names.
shared='{cpus: [.cpus[] | {cpu, online, cr4_pks}], armed: .grants.armed, hooks: .grants.boundary_hooks, rules: [.grants.rules[].name]}'
expect_eq "nobody: what is not activity" "$(jq_of "$user_info" "$shared")" \
	"$(jq_of "$root_info" "$shared")"
echo "$user_info" | emit_json info
nobody pkstool info | grep -q '^cpu0: cr4\.pks on, registers and counters: root only$' ||
	fail "nobody info text: cpu0: $(nobody pkstool info | grep '^cpu0')"
nobody pkstool info | grep -q '^grants: armed, counts: root only$' ||
	fail "nobody info text: $(nobody pkstool info | grep '^grants')"
pkstool info | grep -q '^cpu0: cr4\.pks on pkrs 0x[0-9a-f]\{8\} writes [0-9]' ||
	fail "root info text: cpu0: $(pkstool info | grep '^cpu0')"
# metrics leaves the hidden series out rather than exporting zeros.
user_prom=$(nobody pkstool metrics) || fail "nobody metrics"
root_prom=$(pkstool metrics) || fail "root metrics"
for series in pkstool_cpu_pkrs_writes_total pkstool_grants_total pkstool_tasks_granted; do
	echo "$user_prom" | grep -q "^$series[ {]" && fail "nobody metrics has $series"
	echo "$root_prom" | grep -q "^$series[ {]" || fail "root metrics lacks $series"
done
expect_eq "nobody: activity_shown" "$(echo "$user_prom" | sed -n 's/^pkstool_activity_shown //p')" 0
expect_eq "root: activity_shown" "$(echo "$root_prom" | sed -n 's/^pkstool_activity_shown //p')" 1
# ... but no change: enable and disable say to run as root.
out=$(nobody pkstool disable dax0.0 2>&1)
expect_eq "nobody disable exit" "$?" 1
echo "$out" | grep -q 'opened read-only: Operation not permitted: run as root' ||
	fail "nobody disable: $out"
expect_eq "still protected" "$(ns_json "$DAX_NS" .protected)" true
# The control: with the device root-only, the same query fails.
chmod 600 /dev/pks
out=$(nobody pkstool list --json 2>&1)
expect_eq "nobody list, root-only device" "$?" 1
echo "$out" | grep -q 'run as root' || fail "root-only device: $out"
chmod 644 /dev/pks
# Who strayed is root's: a stray's record (its pid, name, code and
# address) is refused to nobody by the driver itself (a raw read-only
# ioctl gets EPERM), and faults and monitor say so and fail; root reads
# it (the control), nobody still gets the count (the next sequence).
seq=$(( $(last_seq) + 1 ))
pks-ioctl stray $((DAX_START + 0x3000)) write >/dev/null
expect_eq "stray write" "$?" 14
root_addr=$(pkstool faults --json --since $seq | jq -r '.[0].address')
root_off=$(pkstool faults --json --since $seq | jq -r '.[0].offset')
echo "$root_addr" | grep -Eq '^0x[0-9a-f]*[1-9a-f][0-9a-f]*$' ||
	fail "root sees address '$root_addr'"
expect_eq "offset for root" "$root_off" 0x3000
pks-ioctl records $seq | grep -q "^seq=$seq pid=[1-9][0-9]* comm=pks-ioctl$" ||
	fail "root's raw record: $(pks-ioctl records $seq)"
out=$(nobody pks-ioctl records $seq)
expect_eq "nobody's raw record read" "$?" 1
expect_eq "nobody's raw record" "$out" "records: Operation not permitted"
expect_eq "next sequence for nobody" "$(nobody pks-ioctl head)" $((seq + 1))
for cmd in faults monitor; do
	out=$(nobody timeout 10 pkstool $cmd --json 2>/tmp/nobody.err)
	expect_eq "nobody $cmd exit" "$?" 1
	expect_eq "nobody $cmd stdout" "$out" ""
	expect_eq "nobody $cmd error" "$(cat /tmp/nobody.err)" \
		"pkstool: $cmd: reading the fault log: Operation not permitted: its records name other users' processes: run as root"
done
echo "ok: root reads the record of seq $seq at $root_addr, nobody is refused"

# Who holds the module: a running monitor keeps rmmod from unloading it,
# and info names it.
start_monitor /tmp/mon.json --json
rmmod pks_test || fail "rmmod pks_test"
rmmod pks 2>/dev/null && fail "rmmod pks with a monitor running"
expect_eq "holders" "$(pkstool info --json | jq -r --arg p $mon '[.[0].holders[] | select(.pid == ($p | tonumber)) | .comm] | join(",")')" pkstool
pkstool info | grep -q "^held open by: pkstool\[$mon\]$" || fail "info text names no holder"
pks-ioctl holders | grep -q "^$mon pkstool$" || fail "root's raw holders: $(pks-ioctl holders)"
# ... to root only (hidepid may hide the monitor from nobody in /proc):
# nobody learns how many have the device open, not who, from the driver
# itself as from info.
out=$(nobody pks-ioctl holders)
expect_eq "nobody's raw holders" "$?" 1
expect_eq "nobody's raw holders" "$out" "$(printf 'count=2\nholders: Operation not permitted')"
expect_eq "nobody's info holders" "$(nobody pkstool info --json | jq -c '.[0].holders')" null
nobody pkstool info | grep -q '^held open by: 2 processes, this pkstool included (who: root only)$' ||
	fail "nobody info text: $(nobody pkstool info | grep '^held')"
nobody pkstool info | grep -q "pkstool\[$mon\]" && fail "nobody info names the monitor"
load_pks

# Protection events, in order: ending, starting (with its mode) and the
# device going away under the driver (ndctl disables its namespace).
pkstool disable dax0.0 >/dev/null || fail "disable"
pkstool enable --mode=relaxed dax0.0 >/dev/null || fail "enable relaxed"
ndctl disable-namespace "$DAX_NS" >/dev/null || fail "disable-namespace"
wait_for /tmp/mon.json device-gone
ndctl enable-namespace "$DAX_NS" >/dev/null || fail "enable-namespace"
stop_monitor
expect_eq "monitor events" \
	"$(jq -r 'select(.event != "fault") | "\(.event) \(.chardev) \(.mode)"' /tmp/mon.json | tr '\n' ',')" \
	"unprotected dax0.0 null,protected dax0.0 relaxed,device-gone dax0.0 null,"
expect_eq "dax0.0 after device-gone" "$(ns_json "$DAX_NS" .protected)" false

# Cursor: records made while the monitor is stopped are reported, once,
# when it starts again.
pkstool enable dax0.0 >/dev/null || fail "enable again"
rm -f /tmp/cursor
start_monitor /tmp/mon1.json --json --cursor /tmp/cursor
pks-ioctl stray $((DAX_START + 0x1000)) write >/dev/null
wait_for /tmp/mon1.json '"event":"fault"'
stop_monitor
first=$(jq -r 'select(.event == "fault") | .seq' /tmp/mon1.json)
pks-ioctl stray $((DAX_START + 0x2000)) write >/dev/null
pks-ioctl stray $((DAX_START + 0x2008)) write >/dev/null
start_monitor /tmp/mon2.json --json --cursor /tmp/cursor
stop_monitor
expect_eq "resumed records" "$(jq -r 'select(.event == "fault") | .seq' /tmp/mon2.json | tr '\n' ' ')" \
	"$((first + 1)) $((first + 2)) "
# The control: without a cursor the same restart reports neither.
pks-ioctl stray $((DAX_START + 0x2010)) write >/dev/null
start_monitor /tmp/mon3.json --json
stop_monitor
expect_eq "records without a cursor" "$(grep -c '"event":"fault"' /tmp/mon3.json)" 0
# A cursor of an earlier load of the driver: everything of this load.
unload_pks
load_pks
pkstool enable dax0.0 >/dev/null || fail "enable after reload"
start_monitor /tmp/mon4.json --json --cursor /tmp/cursor
wait_for /tmp/mon4.json '"event":"protected"'
stop_monitor
expect_eq "first record of the new load" "$(head -n 1 /tmp/mon4.json | jq .seq)" 1

# SIGHUP reopens the log file, as logrotate needs after moving it.
rm -f /tmp/mon.log /tmp/mon.log.1
start_monitor /tmp/mon.err --log /tmp/mon.log
pks-ioctl stray $((DAX_START + 0x1000)) write >/dev/null
wait_for /tmp/mon.log fault
mv /tmp/mon.log /tmp/mon.log.1
kill -HUP $mon
# Reopened: the monitor made the new file (10 s at most).
n=0
until [ -e /tmp/mon.log ]; do
	n=$((n + 1))
	[ $n -lt 100 ] || fail "SIGHUP did not reopen /tmp/mon.log"
	sleep 0.1
done
pks-ioctl stray $((DAX_START + 0x1008)) write >/dev/null
wait_for /tmp/mon.log fault
stop_monitor
expect_eq "lines before the rotation" "$(grep -c fault /tmp/mon.log.1)" 1
expect_eq "lines after it" "$(grep -c fault /tmp/mon.log)" 1
grep -q '+0x1008 ' /tmp/mon.log || fail "the new log has another record: $(cat /tmp/mon.log)"
pkstool disable dax0.0 >/dev/null

# Fault capture off: no probes, so nothing can be protected (the kernel's
# own accesses could not be granted), and info and monitor say so.
unload_pks
insmod /lib/modules/pks.ko fault_capture=0 || fail "insmod fault_capture=0"
expect_eq "fault log" "$(info_json .driver.fault_log)" false
expect_eq "fault hooks pinned" "$(info_json .driver.fault_hooks_pinned)" false
out=$(pkstool enable dax0.0 2>&1)
expect_eq "enable without fault capture" "$?" 1
echo "$out" | grep -q 'fault capture is off' || fail "refusal unclear: $out"
expect_eq "protected without fault capture" "$(ns_json "$DAX_NS" .protected)" false
start_monitor /tmp/mon5.json --json
stop_monitor
expect_eq "monitor without fault capture" "$(head -n 1 /tmp/mon5.json | jq -r .event)" capture-off
unload_pks
load_pks
expect_eq "fault log again" "$(info_json .driver.fault_log)" true
expect_eq "fault hooks pinned again" "$(info_json .driver.fault_hooks_pinned)" true
emit_json monitor lines < /tmp/mon.json
emit_json monitor lines < /tmp/mon5.json
exit 0
