# SPDX-License-Identifier: GPL-2.0
# pks: load and unload both modules 15 times (RELOAD_ROUNDS; make stress
# runs 500; 100 take about 3 minutes under TCG), each round
# with dax0.0 protected, a monitor running that sees a refused stray, and
# the modules unloaded while the namespace is still protected. Every round
# must end with the driver finding nothing outstanding, the namespace
# usable again and no key held. Each round also proves the protection was
# live before the unload: the stray is refused and the monitor reports it.
# require-kmsg: pks: unloading with nothing outstanding
. /tests/lib.sh

rounds=${RELOAD_ROUNDS:-15}
unload_pks
setup_namespaces
start=$(cat /sys/bus/dax/devices/dax0.0/resource)
i=0 clean=0
while [ $i -lt "$rounds" ]; do
	load_pks
	pkstool enable dax0.0 >/dev/null || fail "round $i: enable"
	pkstool monitor > /tmp/monitor.out 2>&1 &
	monitor=$!
	# The monitor is waiting once it holds /dev/pks open.
	n=0
	while ! ls -l /proc/$monitor/fd 2>/dev/null | grep -q /dev/pks; do
		n=$((n + 1))
		[ $n -lt 100 ] || fail "round $i: the monitor never opened /dev/pks"
		sleep 0.1
	done
	pks-ioctl stray $((start + 0x3000)) write >/dev/null
	rc=$?
	[ $rc = 14 ] || fail "round $i: stray write exited $rc, expected 14 (refused)"
	n=0
	while ! grep -q dax0.0 /tmp/monitor.out; do
		n=$((n + 1))
		[ $n -lt 100 ] || fail "round $i: the monitor did not report the stray"
		sleep 0.1
	done
	kill $monitor && wait $monitor 2>/dev/null
	# Unloaded with dax0.0 still protected: the driver releases it. Only
	# this unload's lines count: those after this round's marker.
	echo "reload-loop: round $i unload" > /dev/kmsg
	unload_pks
	dmesg | sed -n "/reload-loop: round $i unload\$/,\$p" |
		grep -q 'pks: unloading with nothing outstanding' &&
		clean=$((clean + 1))
	i=$((i + 1))
done
echo "$rounds rounds; $clean unloads with nothing outstanding"
expect_eq "unloads with nothing outstanding" "$clean" "$rounds"
load_pks
expect_eq "dax0.0 after the loop" "$(ns_json "$DAX_NS" .protected)" false
expect_eq "free keys after the loop" \
	"$(info_json '[.keys[] | select(.state == "free")] | length')" 15
expect_tests_pass protect dax0.0
exit 0
