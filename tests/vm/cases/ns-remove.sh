# SPDX-License-Identifier: GPL-2.0
# pks: a protected namespace that is disabled (its dax device unbound) is
# released first: no keyed entries or key left behind, and it comes back
# unprotected and usable; enabling and disabling while the namespace is
# disabled and enabled under it leaves nothing keyed.
# require-kmsg: pks: dax0.0 is going away while protected: releasing it
. /tests/lib.sh

pks_ready enable
ndctl disable-namespace "$DAX_NS" || fail "ndctl disable-namespace"
expect_eq "keys free" "$(info_json '[.keys[] | select(.state == "free")] | length')" 15
ndctl enable-namespace "$DAX_NS" || fail "ndctl enable-namespace"
expect_eq "unprotected" "$(ns_json "$DAX_NS" .protected)" false
expect_tests_pass protect dax0.0

# Protection racing teardown: enable/disable in a loop while the namespace
# is torn down under it, for a bounded number of rounds, first by
# ndctl disable-namespace/enable-namespace, then by daxctl handing the
# device to kmem and back. No oops (the runner judges the log), and after
# each race nothing is keyed, no key is held and the range is usable
# again. Control: the race must have caught a protected device going away
# at least once, or it proved nothing. (An enable that opens /dev/dax0.0
# as it dies made the stock kernel oops in device_dax's mmap before
# pks.ko's guard on dax_mmap(); the guard's refusals are counted below.)
# toggle_protection STOPFILE: enable and disable dax0.0 as fast as
# possible until STOPFILE exists, so that the toggling spans every
# teardown of the round (a fixed count could run out while the namespace
# was down, each enable failing at once: seen under load on 6.1).
toggle_protection() {
	while [ ! -e "$1" ]; do
		pkstool enable dax0.0 >/dev/null 2>&1
		pkstool disable dax0.0 >/dev/null 2>&1
	done
}

# expect_released WHAT: nothing of dax0.0's protection is left
expect_released() {
	pkstool disable --all >/dev/null 2>&1
	nothing_held || fail "$1 left something held"
	expect_tests_pass protect dax0.0
}

going_away() {
	kernel_log_count 'dax0.0 is going away while protected'
}

released0=$(going_away)
# Rounds of 10 teardowns against the toggler, until one caught a
# protected device (20 rounds at most): on a loaded host one round may
# catch none.
stop=/tmp/ns-remove.stop
round=0
while [ $round -lt 20 ]; do
	rm -f $stop
	toggle_protection $stop &
	racer=$!
	i=0
	while [ $i -lt 10 ]; do
		ndctl disable-namespace "$DAX_NS" >/dev/null 2>&1
		ndctl enable-namespace "$DAX_NS" >/dev/null 2>&1
		# Up for a moment, for the toggler to find it: disabled
		# again at once, it was seldom protected (8 rounds of 10
		# on 6.12 before one teardown caught it).
		sleep 0.3
		i=$((i + 1))
	done
	touch $stop
	wait $racer
	ndctl enable-namespace "$DAX_NS" >/dev/null 2>&1
	expect_released "the ndctl race"
	round=$((round + 1))
	[ $(( $(going_away) - released0 )) -gt 0 ] && break
done
echo "ndctl race: $round rounds"

# daxctl reconfigure-device unbinds device_dax and binds kmem, which puts
# the range into the page allocator: protection still keyed there would
# fault the first kernel allocation that lands in it.
[ -d /sys/bus/dax/drivers/kmem ] || fail "the kmem driver is not loaded"
# 6.12 onlines hotplugged memory by policy, and daxctl then refuses to
# move the device: turn the policy off while this case races.
policy=/sys/devices/system/memory/auto_online_blocks
policy0=$(cat $policy 2>/dev/null)
[ -w $policy ] && { echo offline > $policy || fail "cannot set $policy"; }
daxctl reconfigure-device -m system-ram dax0.0 >/dev/null ||
	fail "daxctl cannot move dax0.0 to system-ram"
daxctl reconfigure-device -m devdax -f dax0.0 >/dev/null 2>&1 ||
	fail "daxctl cannot move dax0.0 back to devdax"
rm -f $stop
toggle_protection $stop &
racer=$!
i=0 onlined=0
while [ $i -lt 4 ]; do
	daxctl reconfigure-device -m system-ram dax0.0 >/dev/null 2>&1 &&
		onlined=$((onlined + 1))
	daxctl reconfigure-device -m devdax -f dax0.0 >/dev/null 2>&1
	i=$((i + 1))
done
touch $stop
wait $racer
daxctl reconfigure-device -m devdax -f dax0.0 >/dev/null 2>&1
[ "$onlined" -gt 0 ] || fail "daxctl never moved dax0.0 to system-ram"
expect_eq "dax0.0 back in devdax mode" \
	"$(daxctl list -d dax0.0 | jq -r '.[0].mode')" devdax
expect_released "the daxctl race"
[ -n "$policy0" ] && echo "$policy0" > $policy
races=$(( $(going_away) - released0 ))
echo "protected devices released under the races: $races"
echo "mmaps of dying dax devices refused: $(kernel_log_count 'opened while its device was going away: refused')"
[ "$races" -gt 0 ] || fail "control: no race released a protected device"
