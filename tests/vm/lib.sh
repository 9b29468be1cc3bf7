# SPDX-License-Identifier: GPL-2.0
#
# Helpers for VM test cases. A case exits 0 (pass), 77 (skip, through
# skip()) or 1 (fail, through fail()).
set -u

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
	echo "ok: $1 = $3"
}

# expect_rc WANT CMD...: run CMD, check its exit code
expect_rc() {
	local want=$1 got
	shift
	"$@"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, expected $want"
	echo "ok: '$*' exited $want"
}

# expect_tests_pass [--skip-ok NAME,...] ARG...: pkstool test --json ARG...
# ran something, every case it ran passed or was skipped where a NAME
# allows it (a case that needs two CPUs while one is offline), and its
# exit code says which: 0 when one passed, 77 when every case skipped.
expect_tests_pass() {
	local allow= json rc bad want=77
	if [ "$1" = --skip-ok ]; then
		allow=$2
		shift 2
	fi
	json=$(pkstool test --json "$@")
	rc=$?
	[ -n "$(echo "$json" | jq '.[]' 2>/dev/null)" ] ||
		fail "'pkstool test $*' ran nothing (exit $rc): $json"
	bad=$(echo "$json" | jq -r --arg allow "$allow" \
		'.[] | select(.result != "pass" and
			      (.result != "skip" or
			       (.test | IN($allow | split(",")[]) | not))) |
		 "\(.test): \(.result) \(.message // "")"')
	[ -z "$bad" ] || fail "'pkstool test $*' (exit $rc): $bad"
	[ "$(echo "$json" | jq '[.[] | select(.result == "pass")] | length')" -gt 0 ] &&
		want=0
	[ $rc = $want ] || fail "'pkstool test $*' exited $rc, expected $want: $json"
	echo "ok: 'pkstool test $*' exited $rc: $(echo "$json" | jq -r '[.[] | "\(.test) \(.result)"] | join(", ")')"
}

# STRAY_VALUE: what pks-ioctl stray writes unless told otherwise
STRAY_VALUE=0xbadbadbadbadbad0

# unprotected_read ADDR: the word at ADDR, read by the kernel the plain
# way (guarded reads serve protected ranges only)
unprotected_read() {
	pks-ioctl stray "$1" read | sed -n 's/.*: went through, value //p'
}

# load_pks_only: the production module alone, as a distribution ships it.
load_pks_only() {
	[ -e /dev/pks ] && return 0
	insmod /lib/modules/pks.ko || fail "insmod pks.ko failed"
	[ -c /dev/pks ] || fail "/dev/pks did not appear"
}

# load_pks: pks.ko and the test module the cases drive (tests, strays).
load_pks() {
	load_pks_only
	[ -e /dev/pks-test ] && return 0
	insmod /lib/modules/pks_test.ko || fail "insmod pks_test.ko failed"
	[ -c /dev/pks-test ] || fail "/dev/pks-test did not appear"
}

# unload_pks: both modules, the test module first (it uses pks.ko).
unload_pks() {
	if [ -e /dev/pks-test ]; then
		rmmod pks_test || fail "rmmod pks_test failed"
	fi
	if [ -e /dev/pks ]; then
		rmmod pks || fail "rmmod pks failed"
	fi
	return 0
}

# info_json FILTER: a jq filter over pkstool info --json's one object
info_json() {
	pkstool info --json | jq -r ".[0] | $1"
}

# rule_grants RULE [CONTEXTS]: accesses the driver let through under RULE
# (held-page, dax-layer, pmem-driver), summed over CONTEXTS (default: task
# softirq hardirq stepped)
rule_grants() {
	local ctx=${2:-task softirq hardirq stepped} sum=
	for c in $ctx; do sum="$sum${sum:+ + }.$c"; done
	info_json ".grants.rules[] | select(.name == \"$1\") | $sum"
}

# bracket_opens [OWNER]: calls of the owner's copy functions that opened a
# protected namespace's key (driver/ownercopy.c), of OWNER's (dax-layer,
# pmem-driver) or all
bracket_opens() {
	pks-ioctl brackets |
		awk -v o="${1:-}" '/opens=/ && (o == "" || $2 == o) {
			sub(/.*opens=/, ""); s += $1 } END { print s + 0 }'
}

# irq_strays ADDR ROUNDS [control]: ROUNDS fault-safe stray writes to
# ADDR from a hard interrupt (a pinned hrtimer) and a softirq (a tasklet)
# on cpu0, asked for from cpu1 (PKS_TEST_IOC_IRQ_STRAYS); the counts it
# prints become the caller's variables
irq_strays() {
	local out addr=$1 rounds=$2
	shift 2
	out=$(taskset -c 1 pks-ioctl irq-strays "$addr" 0 "$rounds" "$@") ||
		fail "irq-strays $*: $out"
	echo "irq-strays ${1:-}: $out"
	eval "$out"
}

# nmi_watchdog_off, nmi_watchdog_back: stop the NMI watchdog for a
# measurement of faults, and restart it as it was. An NMI resets PKRS
# inside a bracket, and the next access faults to get it back (a
# refill): the watchdog's NMIs would land in the counts.
nmi_watchdog_off() {
	NMI_WATCHDOG=$(cat /proc/sys/kernel/nmi_watchdog 2>/dev/null)
	[ -n "$NMI_WATCHDOG" ] &&
		echo 0 2>/dev/null > /proc/sys/kernel/nmi_watchdog
	return 0
}
nmi_watchdog_back() {
	[ -n "${NMI_WATCHDOG:-}" ] &&
		echo "$NMI_WATCHDOG" 2>/dev/null > /proc/sys/kernel/nmi_watchdog
	return 0
}

# owner_access RULE: accesses of RULE's owner let through, by a grant of
# the rule at the fault or by the owner's copy brackets without one
owner_access() {
	echo $(( $(rule_grants "$1") + $(bracket_opens "$1") ))
}

# The PKRS value the driver keeps outside windows: key 0 RW, 1..15 AD.
DEFAULT_PKRS=0x55555554

# kernel_log_count TEXT: how many kernel log lines since boot hold TEXT.
# From the VM init's full copy of /dev/kmsg, not dmesg: the ring buffer
# drops old lines under a busy case, so a count taken by dmesg before and
# after can stay level while lines were added.
kernel_log_count() {
	grep -cF -- "$1" /tmp/kmsg
}

# quiet_fault_log: the driver logs 10 fault reports per 5 seconds; wait out
# the burst of an earlier case in this boot, so that the reports a case
# requires in the kernel log are not the ones suppressed. The window opens
# at a fault, so once the newest fault the driver recorded (pkstool
# faults) is 5 seconds old, it has closed: wait until that fault is 6
# seconds old (a second's margin), not a fixed 6 seconds whatever came
# before. Without a driver there is no window.
quiet_fault_log() {
	local last wait
	last=$(pkstool faults --json 2>/dev/null |
	       jq -r '.[-1].timestamp // empty |
		      sub("\\.[0-9]*Z$"; "Z") | fromdateiso8601') ||
		{ sleep 6; return; }
	[ -n "$last" ] || return 0
	wait=$((last + 6 - $(date +%s)))
	[ "$wait" -gt 0 ] && sleep "$wait"
	return 0
}

# nothing_held: by the driver's own accounting no range, keyed direct-map
# entry or key is held, every key is free and every online CPU's PKRS is
# at its default; else prints what is held and returns 1.
nothing_held() {
	local out acct free off
	# As pkstool info shows them (its own open file is the one session),
	# in one call: the accounting, the free keys, the CPUs off default.
	out=$(pkstool info --json | jq -r --arg pkrs "$DEFAULT_PKRS" '.[0] |
		(.accounting | "sessions=\(.sessions) ranges=\(.ranges) keyed_entries=\(.keyed_entries) keys=\(.keys) task_states=\(.task_states) grant_states=\(.grant_states) probes=\(.probes)"),
		([.keys[] | select(.state == "free")] | length),
		([.cpus[] | select(.online and .pkrs != $pkrs)] | length)')
	{ read -r acct; read -r free; read -r off; } <<EOF
$out
EOF
	echo "accounting: $acct"
	echo "$acct" | grep -Eq '^sessions=1 ranges=0 keyed_entries=0 keys=0 task_states=0 grant_states=0 ' ||
		{ echo "held: $acct"; return 1; }
	[ "$free" = 15 ] || { echo "$free of keys 1-15 free"; return 1; }
	[ "$off" = 0 ] || { echo "$off CPUs not at PKRS $DEFAULT_PKRS"; return 1; }
}

# setup_namespaces: a 512 MiB devdax namespace (dax0.0, 2 MiB aligned), a
# 512 MiB fsdax one (room for xfs) and a 128 MiB raw one, unless they exist already (the
# NVDIMM's backing file keeps its labels across the boots of one run).
# Sets DAX_NS, FSDAX_NS, RAW_NS to their names and DAX_START to dax0.0's
# physical start.
setup_namespaces() {
	if [ "$(ndctl list -N | jq '[.[]? | select(.mode == "devdax")] | length')" != 1 ]; then
		ndctl disable-region all >/dev/null &&
		ndctl init-labels -f all >/dev/null &&
		ndctl enable-region all >/dev/null &&
		ndctl create-namespace -r region0 -m devdax -a 2M -s 512M >/dev/null &&
		ndctl create-namespace -r region0 -m fsdax -s 512M >/dev/null &&
		ndctl create-namespace -r region0 -m raw -s 128M >/dev/null ||
			fail "cannot create the test namespaces"
	fi
	DAX_NS=$(ndctl list -N | jq -r '.[] | select(.mode == "devdax") | .dev')
	FSDAX_NS=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .dev')
	RAW_NS=$(ndctl list -N | jq -r '.[] | select(.mode == "raw") | .dev')
	[ -c /dev/dax0.0 ] || fail "no /dev/dax0.0 after setting up namespaces"
	DAX_START=$(cat /sys/bus/dax/devices/dax0.0/resource)
}

# pks_ready [enable|none]: the start of most cases: both modules loaded
# (load_pks) and the test namespaces made (setup_namespaces); "enable"
# then protects dax0.0 (strict), "none" unprotects whatever an earlier
# case of the boot left protected.
pks_ready() {
	load_pks
	setup_namespaces
	case ${1:-} in
	enable) pkstool enable dax0.0 || fail "enable dax0.0" ;;
	none) pkstool disable --all >/dev/null || fail "disable --all" ;;
	'') ;;
	*) fail "pks_ready: unknown argument '$1'" ;;
	esac
}

# ns_json NS FILTER: a jq filter over NS's object in pkstool list
ns_json() {
	pkstool list --json | jq -r ".[] | select(.dev == \"$1\") | $2"
}

# sysfs_hex PATH: a sysfs number as 0x...
sysfs_hex() {
	printf '%#x' "$(cat "$1")"
}

# PK_WARN: the stock kernel's WARN on the first kernel-mode protection-key
# fault of a boot, exactly as this kernel series prints it
# (tests/vm/first-fault-warn). pks holds it as reported (warnonce.c), so
# no case may print it, but one that loads pks with silence_pk_warn=0
# and names it in an "# expect-kmsg: FIRST-FAULT-WARN" line. For a
# series it does not know, a pattern that matches nothing.
PK_WARN=$(awk -v s="$(uname -r | cut -d. -f1,2)" \
	'$1 == s { sub(/^[^ ]+ /, ""); print; exit }' /tests/first-fault-warn)
PK_WARN=${PK_WARN:-'^no first-fault WARN is known for this kernel$'}

# last_seq: the newest sequence number of the driver's log so far (a
# fault or a protection event), or 0
last_seq() {
	echo $(( $(pks-ioctl head) - 1 ))
}

# wait_polling PID WHAT: wait (10 s at most) until PID sleeps in poll(),
# as monitor and faults --follow do once they read the log; fail naming
# WHAT if it never does.
wait_polling() {
	local n=0
	until grep -q poll "/proc/$1/wchan" 2>/dev/null; do
		kill -0 "$1" 2>/dev/null || fail "$2 exited before it was ready"
		n=$((n + 1))
		[ $n -lt 100 ] || fail "$2 never waited for records (wchan: $(cat "/proc/$1/wchan" 2>/dev/null))"
		sleep 0.1
	done
}

# monitor_start: pkstool monitor --json in the background, its events
# logged to /tmp/monitor.log, once it waits for records; monitor_stop ends
# it with SIGTERM, on which it must log what was recorded before and exit 0.
monitor_start() {
	pkstool monitor --json --log /tmp/monitor.log &
	MONITOR_PID=$!
	wait_polling "$MONITOR_PID" "pkstool monitor"
}

monitor_stop() {
	kill -TERM "$MONITOR_PID"
	wait "$MONITOR_PID"
	expect_eq "monitor exit after SIGTERM" "$?" 0
}

# expect_strays SEQ0 ACCESS:OFFSET...: the driver recorded, after sequence
# number SEQ0, exactly one refused stray of pks-ioctl into dax0.0 per
# ACCESS:OFFSET, in that order and numbered on from SEQ0, each write's ip
# the faulting pks_can_write; pkstool list counts that many faults for
# dax0.0 (protected by the case, so all of them its own), and the monitor
# (monitor_start, stopped) had one fault event for each. Sets RECORDS to
# the records as pkstool faults --json shows them.
expect_strays() {
	local seq0=$1 i=0 access offset
	shift
	RECORDS=$(pkstool faults --json --since $((seq0 + 1))) || fail "pkstool faults"
	echo "$RECORDS"
	cat /tmp/monitor.log
	expect_eq "records" "$(echo "$RECORDS" | jq length)" $#
	expect_eq "monitor events" "$(wc -l < /tmp/monitor.log)" $#
	for want in "$@"; do
		access=${want%%:*} offset=${want#*:}
		expect_eq "record $i seq" "$(echo "$RECORDS" | jq ".[$i].seq")" $((seq0 + 1 + i))
		expect_eq "record $i" "$(echo "$RECORDS" | jq -r ".[$i] | [.access, .chardev, .offset, .outcome, .comm] | join(\" \")")" \
			"$access dax0.0 $offset refused pks-ioctl"
		case $access:$(echo "$RECORDS" | jq -r ".[$i].ip") in
		read:* | write:pks_can_write+0x*) ;;
		*) fail "record $i: the ip is not the faulting pks_can_write" ;;
		esac
		expect_eq "monitor event $i" \
			"$(sed -n "$((i + 1))p" /tmp/monitor.log | jq -r '[.event, .access, .offset] | join(" ")')" \
			"fault $access $offset"
		i=$((i + 1))
	done
	expect_eq "list fault count" "$(ns_json "$DAX_NS" .faults)" $#
}

# emit_json SCHEMA [lines] < JSON: print JSON for the host to check
# against tests/schema/SCHEMA.json (run-vm.sh runs tests/schema/validate.py
# on each case's output); "lines" for one document per line.
emit_json() {
	echo "@@@JSON $1 ${2:-array}"
	cat
	echo "@@@JSON-END"
}

# cxl_create_region: wait for the CXL memdev mem0 and its nvdimm bridge
# (the CXL modules probe in the background), create a pmem region on it
# with cxl create-region and set CXL_REGION to its name (cxl list -R) and
# CXL_ND_REGION to the nvdimm region it became (ndctl list -R).
cxl_create_region() {
	local i json
	for i in $(seq 60); do
		# The memdev, its cxl_nvdimm bound and its nvdimm on the CXL
		# bus: 6.1 oopses in the error path of a region probe that
		# finds the nvdimm missing (seen once, on a loaded host).
		[ "$(cxl list -M 2>/dev/null | jq -r '.[0].memdev // empty')" = mem0 ] &&
			[ -e /sys/bus/cxl/devices/mem0/pmem0/driver ] &&
			[ -n "$(ndctl list -D -b CXL 2>/dev/null | jq -r '.[0].dev // empty')" ] &&
			break
		sleep 0.5
	done
	json=$(cxl create-region -m -t pmem -d decoder0.0 mem0) ||
		fail "cxl create-region failed"
	CXL_REGION=$(echo "$json" | jq -r 'if type == "array" then .[0] else . end | .region')
	for i in $(seq 60); do
		# -i: a region whose labels are from an earlier one
		# stays disabled (cxl_relabel)
		CXL_ND_REGION=$(ndctl list -R -i -b CXL | jq -r '.[0].dev // empty')
		[ -n "$CXL_ND_REGION" ] && break
		sleep 0.5
	done
	[ -n "$CXL_REGION" ] && [ -n "$CXL_ND_REGION" ] ||
		fail "no region after cxl create-region: $json"
	echo "cxl region $CXL_REGION is nvdimm $CXL_ND_REGION"
}

# integrity_proof NS: the libpmem2 data-integrity proof on the devdax
# namespace NS: with protection, 1000 stray kernel writes all refused and
# the pattern intact while user space keeps writing; without it (the
# control), the same writes corrupt it. Fails the case otherwise.
integrity_proof() {
	local out rc
	out=$(pks-integrity "$1" 1000)
	rc=$?
	echo "$out"
	[ $rc -eq 0 ] || fail "pks-integrity $1 exited $rc"
	echo "$out" | grep -q '^protected: 1000 of 1000 stray writes refused, 0 words damaged, user write ok, guarded read ok$' ||
		fail "integrity on $1: protected phase"
	echo "$out" | grep -Eq '^control: 0 of 1000 stray writes refused, [1-9][0-9]* words damaged$' ||
		fail "integrity on $1: control phase"
}

# need_cxl [SHAPE]: skip unless the machine has a CXL device (SHAPE:
# exactly that machine shape)
need_cxl() {
	case ${PKSTEST_SHAPE:-} in
	${1:-cxl*}) ;;
	*) skip "not a ${1:-CXL} machine (pkstest.shape=${PKSTEST_SHAPE:-})" ;;
	esac
}

# cxl_relabel: fresh namespace labels on the CXL nvdimm region
# CXL_ND_REGION (cxl_create_region), which comes up without namespaces
# when its labels are from an earlier region ("invalid
# interleave-set-cookie": a region re-created after a power-off, or after
# cxl destroy-region). What is on the media stays.
cxl_relabel() {
	local nmem cmd out
	nmem=$(ndctl list -D -r "$CXL_ND_REGION" | jq -r '.[0].dev // empty')
	[ -n "$nmem" ] || fail "no nvdimm under $CXL_ND_REGION"
	for cmd in "disable-region $CXL_ND_REGION" "zero-labels $nmem" \
		   "init-labels -f $nmem" "enable-region $CXL_ND_REGION"; do
		# shellcheck disable=SC2086
		out=$(ndctl $cmd 2>&1) ||
			fail "cannot relabel $nmem of $CXL_ND_REGION: ndctl $cmd: $out"
	done
	echo "relabelled $nmem of $CXL_ND_REGION"
}

# cxl_as_region0: on the CXL machine shape, the CXL region, which is then
# the nvdimm region0 that setup_namespaces (and the NVDIMM cases that
# use it) work on: those cases run unchanged on CXL persistent memory.
cxl_as_region0() {
	need_cxl cxl
	cxl_create_region
	[ "$CXL_ND_REGION" = region0 ] ||
		fail "the CXL region is $CXL_ND_REGION, not region0"
	expect_eq "region0's provider" \
		"$(ndctl list -R -r region0 -b CXL | jq -r '.[0].dev // empty')" region0
}

# cxl_namespaces: a 256 MiB devdax namespace (2 MiB aligned) and a 512
# MiB fsdax one on CXL_ND_REGION (cxl_create_region); sets CXL_DAX_NS,
# CXL_DAX (its dax device), CXL_FSDAX_NS, CXL_BLK (its pmem device) and
# CXL_DAX_UUID, CXL_FSDAX_UUID (ndctl list -N's uuid).
cxl_namespaces() {
	local ns
	ndctl create-namespace -r "$CXL_ND_REGION" -m devdax -a 2M -s 256M >/dev/null ||
		fail "devdax namespace on $CXL_ND_REGION"
	ndctl create-namespace -r "$CXL_ND_REGION" -m fsdax -s 512M >/dev/null ||
		fail "fsdax namespace on $CXL_ND_REGION"
	ns=$(ndctl list -N -r "$CXL_ND_REGION")
	CXL_DAX_NS=$(echo "$ns" | jq -r '.[] | select(.mode == "devdax") | .dev')
	CXL_DAX=$(echo "$ns" | jq -r '.[] | select(.mode == "devdax") | .chardev')
	CXL_DAX_UUID=$(echo "$ns" | jq -r '.[] | select(.mode == "devdax") | .uuid')
	CXL_FSDAX_NS=$(echo "$ns" | jq -r '.[] | select(.mode == "fsdax") | .dev')
	CXL_BLK=$(echo "$ns" | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
	CXL_FSDAX_UUID=$(echo "$ns" | jq -r '.[] | select(.mode == "fsdax") | .uuid')
	[ -c "/dev/$CXL_DAX" ] && [ -b "/dev/$CXL_BLK" ] ||
		fail "no devices for the namespaces on $CXL_ND_REGION: $ns"
	echo "on CXL $CXL_REGION (nvdimm $CXL_ND_REGION): $CXL_DAX_NS $CXL_DAX $CXL_DAX_UUID, $CXL_FSDAX_NS $CXL_BLK $CXL_FSDAX_UUID"
}

# mount_raw_disk [new]: an ext4 on the raw namespace RAW_NS
# (setup_namespaces) at /disk, standing in for the root disk across the
# boots of a reboot pair; "new" makes the file system first.
mount_raw_disk() {
	local disk
	disk=/dev/$(ndctl list -N -n "$RAW_NS" | jq -r '.[0].blockdev')
	[ -b "$disk" ] || fail "no block device for the raw namespace $RAW_NS"
	if [ "${1:-}" = new ]; then
		mkfs.ext4 -q -F "$disk" || fail "mkfs.ext4 $disk failed"
	fi
	mkdir -p /disk && mount "$disk" /disk || fail "mount $disk failed"
}

# cost_figure REGION LABEL: make bench's enable and disable cost against
# the namespace's size, on a devdax namespace made afresh on REGION for
# each size: the direct-map entries keyed (counted: the size over the
# leaf size, all unkeyed again after) and the time of each, three runs
# per size, printed as JSON with the namespace named "LABEL SIZE". The
# largest is 1008 MiB, not 1 GiB: a namespace of 1 GiB covers the whole
# aligned GiB at the region's start, which the kernel then maps with one
# 1 GiB direct-map page, and the dax device (the namespace less its
# metadata) cannot be keyed inside that page without splitting it, so
# enable rightly refuses it.
cost_figure() {
	local region=$1 label=${2:+$2 } size dax start bytes run out leaf
	ndctl destroy-namespace -f -r "$region" all >/dev/null 2>&1
	for size in 64M 256M 1008M; do
		dax=$(ndctl create-namespace -r "$region" -m devdax -a 2M -s $size |
		      jq -r '.daxregion.devices[0].chardev') ||
			fail "cannot create a $size devdax namespace on $region"
		[ -c "/dev/$dax" ] ||
			fail "no device for a $size devdax namespace on $region"
		start=$(sysfs_hex "/sys/bus/dax/devices/$dax/resource")
		bytes=$(cat "/sys/bus/dax/devices/$dax/size")
		for run in 1 2 3; do
			out=$(pks-ioctl protect-cost "$start" "$bytes" "/dev/$dax") ||
				fail "protect-cost $label$size"
			echo "$out" | jq -c "{figure: \"enable and disable cost\", namespace: \"$label$size\", run: $run} + ."
			leaf=$(echo "$out" | jq .leaf_bytes)
			[ "$leaf" -gt 0 ] || fail "$label$size: no leaf size"
			expect_eq "$label$size: entries keyed" "$(echo "$out" | jq .keyed_entries)" $((bytes / leaf))
			expect_eq "$label$size: entries keyed after disable" "$(echo "$out" | jq .keyed_after_unprotect)" 0
		done
		ndctl destroy-namespace -f -r "$region" all >/dev/null 2>&1
	done
}

# ext4_dax_stray_target MIB OFFSET: ext4 -o dax on the first 64 MiB of the
# fsdax namespace (the rest is used by no file), /mnt/f filled with MIB
# MiB of random data (want: its md5), the namespace protected (blk: its
# disk), and target: a word OFFSET bytes into a page no file uses, with
# word0 its value read through a window. For the stray cases.
ext4_dax_stray_target() {
	blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
	[ -b "/dev/$blk" ] || fail "no fsdax block device"
	pkstool disable --all >/dev/null || fail "disable --all"
	mkdir -p /mnt
	mkfs.ext4 -q -F -b 4096 "/dev/$blk" 64M || fail "mkfs.ext4"
	mount -t ext4 -o dax "/dev/$blk" /mnt || fail "mount -o dax"
	grep -q "/mnt .*dax" /proc/mounts || fail "not mounted with DAX"
	dd if=/dev/urandom of=/mnt/f bs=1M count="$1" conv=fsync 2>/dev/null ||
		fail "write /mnt/f"
	want=$(md5sum < /mnt/f)
	pkstool enable "$blk" >/dev/null || fail "enable $blk"
	target=$(($(ns_json "$FSDAX_NS" .resource) + (256 << 20) + $2))
	word0=$(pks-ioctl guarded-read $target) || fail "guarded read"
}
