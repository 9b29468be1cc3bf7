# SPDX-License-Identifier: GPL-2.0
# pks: fstests (issue 33) on two fsdax namespaces, TEST_DEV and
# SCRATCH_DEV, mounted -o dax, once unprotected and once with both
# namespaces protected in strict mode from before mkfs to after the last
# test, for each file system in FSTESTS_FS (ext4:xfs) and the groups in
# FSTESTS_GROUPS (dax; ':' between words: pkstest.env splits on commas).
# The suite runs in a Debian 12 userspace (tests/fstests/mkroot.sh) on
# the VM's virtio disk (run-vm.sh's VM_DISK), chrooted into from this
# busybox side, which keeps the driver and its tools. Prints one
# "@@@FST FS MODE TEST STATUS" line per test for tests/fstests/run.sh,
# which compares the two result sets and writes the summary, and after
# each protected run checks here: both namespaces stayed protected
# (sampled during the run), no oops or WARN in the kernel log, no fault
# recorded while the suite ran (no stray of file-system code), a stray
# injected after the run refused and recorded; and prints the grants by
# rule. Progress lines go to the console (ttyS0) as they come.
# suite: fstests
# boot: own
. /tests/lib.sh

fslist=$(echo "${FSTESTS_FS:-ext4:xfs}" | tr ':' ' ')
groups=$(echo "${FSTESTS_GROUPS:-dax}" | tr ':' ' ')
root=/fst
xt=/var/lib/xfstests

progress() {
	echo "@@fstests $*" > /dev/ttyS0
}

load_pks
# The virtio disk that carries the Debian userspace, and quota.
for m in $(cat /lib/modules/load-order-fstests); do
	insmod /lib/modules/$m.ko 2>/dev/null
done
for i in $(seq 50); do
	[ -b /dev/vda ] && break
	sleep 0.2
done
[ -b /dev/vda ] || fail "no /dev/vda: run with VM_DISK (tests/fstests/run.sh)"

# Two fsdax namespaces of 960 MiB: neither covers a whole aligned GiB,
# which the kernel would map with one 1 GiB page pks cannot key.
ndctl disable-region all >/dev/null &&
	ndctl init-labels -f all >/dev/null &&
	ndctl enable-region all >/dev/null &&
	ndctl create-namespace -r region0 -m fsdax -s 960M >/dev/null &&
	ndctl create-namespace -r region0 -m fsdax -s 960M >/dev/null ||
	fail "cannot create two fsdax namespaces"
set -- $(ndctl list -N | jq -r 'sort_by(.dev) | .[] | select(.mode == "fsdax") | .blockdev')
[ $# = 2 ] || fail "want 2 fsdax namespaces, have: $*"
test_blk=$1 scratch_blk=$2
test_ns=$(ndctl list -N | jq -r ".[] | select(.blockdev == \"$test_blk\") | .dev")
echo "TEST_DEV /dev/$test_blk ($test_ns), SCRATCH_DEV /dev/$scratch_blk"

mkdir -p $root
mount /dev/vda $root || fail "mount /dev/vda"
[ -x $root$xt/check ] || fail "no $xt/check in the image"
mount -o bind /dev $root/dev && mount -o bind /proc $root/proc &&
	mount -o bind /sys $root/sys && mount -t tmpfs tmpfs $root/tmp ||
	fail "cannot set up the chroot"
mkdir -p $root/dev/shm $root/mnt/test $root/mnt/scratch
mount -t tmpfs tmpfs $root/dev/shm

# config FS: local.config for FS on the two namespaces
config() {
	local mkfs
	case $1 in
	ext4) mkfs="-b 4096" ;;
	xfs) mkfs="-b size=4096" ;;
	esac
	cat > $root$xt/local.config <<EOF
export FSTYP=$1
export TEST_DEV=/dev/$test_blk
export TEST_DIR=/mnt/test
export SCRATCH_DEV=/dev/$scratch_blk
export SCRATCH_MNT=/mnt/scratch
export MKFS_OPTIONS="$mkfs"
export MOUNT_OPTIONS="-o dax"
export TEST_FS_MOUNT_OPTS="-o dax"
EOF
}

# protected_states: "TEST=true SCRATCH=true" while both namespaces are
# protected (TEST and SCRATCH their block devices)
protected_states() {
	local l b
	l=$(pkstool list --json)
	for b in "$test_blk" "$scratch_blk"; do
		echo "$l" | jq -r --arg b "$b" \
			'.[] | select(.blockdev == $b) | "\(.blockdev)=\(.protected)"'
	done | paste -sd' '
}

# sampler: the namespaces' protection every 20 s, into /tmp/samples
sampler() {
	while :; do
		protected_states >> /tmp/samples
		sleep 20
	done
}

# run FS MODE: the groups on FS, unprotected or protected
run() {
	local fs=$1 mode=$2 seq0 g0 kmsg0 spid n rec word t t0 st secs
	config "$fs"
	progress "$fs $mode: begin (groups: $groups)"
	kmsg0=$(wc -l < /tmp/kmsg)
	t0=$(date +%s)
	if [ "$mode" = protected ]; then
		seq0=$(last_seq)
		g0=$(pkstool info --json | jq -c '.[0].grants.rules')
		pkstool enable "$test_blk" "$scratch_blk" ||
			fail "$fs: enable $test_blk $scratch_blk"
		expect_eq "$fs: protected before mkfs" "$(protected_states)" \
			"$test_blk=true $scratch_blk=true"
		pkstool list
		: > /tmp/samples
		sampler &
		spid=$!
	fi
	umount $root/mnt/test $root/mnt/scratch 2>/dev/null
	case $fs in
	xfs) chroot $root mkfs.xfs -q -f -b size=4096 "/dev/$test_blk" ;;
	*) chroot $root mkfs.$fs -q -F -b 4096 "/dev/$test_blk" ;;
	esac > /tmp/mkfs.out 2>&1 ||
		{ cat /tmp/mkfs.out; fail "$fs: mkfs TEST_DEV"; }
	# The suite mounts TEST_DEV with DAX: see that it really is.
	chroot $root mount -o dax "/dev/$test_blk" /mnt/test ||
		fail "$fs: mount -o dax TEST_DEV"
	grep -q "^/dev/$test_blk /fst/mnt/test $fs .*dax" /proc/mounts ||
		fail "$fs: TEST_DEV not mounted with DAX: $(grep "$test_blk" /proc/mounts)"
	umount $root/mnt/test
	# One line per test to the console as check prints it.
	chroot $root /usr/bin/env -i HOME=/root TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd $xt && RESULT_BASE=$xt/results/$fs-$mode \
		./check -R xunit -g $(echo $groups | tr ' ' ',')" 2>&1 |
		while IFS= read -r line; do
			echo "$line"
			progress "$fs $mode: $line"
		done
	# Per test, from the suite's xunit report.
	chroot $root python3 - "$xt/results/$fs-$mode/result.xml" > /tmp/res <<'PY'
import sys, xml.etree.ElementTree as ET
for tc in ET.parse(sys.argv[1]).getroot().iter("testcase"):
	tags = {c.tag for c in tc}
	st = ("fail" if "failure" in tags or "error" in tags
	      else "notrun" if "skipped" in tags else "pass")
	print(tc.get("name"), st, tc.get("time", ""))
PY
	[ -s /tmp/res ] || fail "$fs $mode: no results in result.xml"
	while read -r t st secs; do
		echo "@@@FST $fs $mode $t $st $secs"
	done < /tmp/res
	echo "@@@FST-TIME $fs $mode $(($(date +%s) - t0))"
	# What failed, for the log: the suite's diffs.
	for t in $(awk '$2 == "fail" {print $1}' /tmp/res); do
		echo "--- $fs $mode $t:"
		head -c 4000 $root$xt/results/$fs-$mode/$t.out.bad 2>/dev/null |
			diff $root$xt/tests/$t.out - | head -40
	done
	umount $root/mnt/test $root/mnt/scratch 2>/dev/null
	if [ "$mode" = protected ]; then
		kill $spid
		wait $spid 2>/dev/null
		expect_eq "$fs: protected after the last test" \
			"$(protected_states)" "$test_blk=true $scratch_blk=true"
		n=$(grep -vc "^$test_blk=true $scratch_blk=true\$" /tmp/samples)
		expect_eq "$fs: samples during the run not protected (of $(wc -l < /tmp/samples))" "$n" 0
		pkstool list
		# No fault recorded while the suite ran: no stray of file-system
		# code (or anything else) into the namespaces.
		rec=$(pkstool faults --json --since $((seq0 + 1)) | jq length)
		if [ "$rec" != 0 ]; then
			pkstool faults --since $((seq0 + 1)) | head -20
			fail "$fs: $rec faults recorded during the protected run"
		fi
		echo "ok: $fs: no fault recorded during the protected run"
		# A stray after the run, into TEST_DEV's file system: refused,
		# recorded as one fault of pks-ioctl, and the word unchanged.
		t=$(($(ns_json "$test_ns" .resource) + (64 << 20) + 0x208))
		word=$(pks-ioctl guarded-read $t) || fail "guarded read"
		pks-ioctl stray $t write
		expect_eq "$fs: stray after the run refused (EFAULT)" "$?" 14
		expect_eq "$fs: the stray word" "$(pks-ioctl guarded-read $t)" "$word"
		rec=$(pkstool faults --json --since $((seq0 + 1)))
		expect_eq "$fs: stray recorded" \
			"$(echo "$rec" | jq -r '[.[] | "\(.access) \(.outcome) \(.comm)"] | join(",")')" \
			"write refused pks-ioctl"
		echo "@@@FST-CHECK $fs stray-refused ok"
		# Kernel log: no oops, no WARN since the run began.
		n=$(tail -n +$((kmsg0 + 1)) /tmp/kmsg |
		    grep -cE 'Oops|WARNING:|BUG:|general protection fault|Unable to handle')
		expect_eq "$fs: oopses and WARNs in the kernel log" "$n" 0
		echo "@@@FST-CHECK $fs kernel-log ok"
		# The grants by rule of this run (the counts since the load,
		# less those at its start).
		echo "@@@FST-GRANTS $fs $(pkstool info --json | jq -c --argjson a "$g0" \
			'[.[0].grants.rules[] | . as $r |
			  ($a[] | select(.name == $r.name)) as $o |
			  {name, task: (.task - $o.task),
			   softirq: (.softirq - $o.softirq),
			   hardirq: (.hardirq - $o.hardirq),
			   stepped: (.stepped - $o.stepped)}]')"
		pkstool disable "$test_blk" "$scratch_blk" >/dev/null ||
			fail "$fs: disable"
	fi
	progress "$fs $mode: end"
}

for fs in $fslist; do
	run "$fs" unprotected
	run "$fs" protected
done
umount $root/dev/shm $root/tmp $root/sys $root/proc $root/dev
umount $root
exit 0
