# SPDX-License-Identifier: GPL-2.0
# boot: own
# pks: kernel copies of protected memory that no probed function makes,
# through pages a user pinned with get_user_pages, work and move the
# right bytes, run as nobody (issue 21):
#  zc-ext4   a world-readable file on a protected ext4 -o dax file system,
#            mapped read-only and sent with MSG_ZEROCOPY over loopback TCP:
#            the receive path deep-copies the pinned pages with memcpy() in
#            the NET_RX softirq (skb_copy_ubufs());
#  zc-dax    the same from a protected device-dax mapping (dax0.0);
#  fuse-ext4 O_DIRECT reads into and writes from a mapping of a file on the
#  fuse-dax  protected ext4, then of dax0.0, against a file a FUSE daemon
#            (pks-fuse, libfuse3) serves from its own memory: FUSE copies
#            between the pinned pages and the daemon's buffer in
#            fuse_copy_page(), in the daemon's read() and write() on
#            /dev/fuse.
# pks-zerocopy checks that the bytes received equal the mapping's and hold
# the pattern written (not one never written), and that every zerocopy
# send completed; pks-fuse that each direction moved the pattern. Each runs
# unprotected first (the control: the same checks pass, so a failure under
# protection is the protection's), then with both namespaces protected
# (strict), where the same checks must pass with the same checksums, no
# fault may be recorded and the kernel log must show no oops or other
# report: the one report allowed is the stock kernel's WARN_ON_ONCE on
# the first protection-key fault in kernel mode (any granted access, an
# ext4 lazyinit write among them, takes one).
# On a driver that grants only its probed functions, zc-* panics the VM
# ("Fatal exception in interrupt") and fuse-* oopses the daemon: its own
# boot, and its progress goes to the kernel log too, so that the console
# log shows how far it got. COPYPATHS (PKSTEST_ENV="COPYPATHS=fuse-ext4:
# zc-dax", colons) runs some of the paths, in the order given, and
# FUSE_STEPS=read or write one direction of the FUSE paths (the first
# oops ends a boot's FUSE tests).
# require-kmsg: pks: dax0\.0: 0x[0-9a-f]+\+0x[0-9a-f]+ protected with key [0-9]+
# require-kmsg: pks: pmem[0-9.]+: 0x[0-9a-f]+\+0x[0-9a-f]+ protected with key [0-9]+
. /tests/lib.sh

nobody() { su -s /bin/sh nobody -c "$*"; }
paths=$(echo "${COPYPATHS:-zc-ext4:zc-dax:fuse-ext4:fuse-dax}" | tr ':' ' ')
[ -n "$(echo $paths)" ] || fail "COPYPATHS='$COPYPATHS' names no path"
for p in $paths; do
	case $p in
	zc-ext4 | zc-dax | fuse-ext4 | fuse-dax) ;;
	*) fail "unknown path '$p' in COPYPATHS" ;;
	esac
done
SIZE=$((2 << 20))
FUSE_STEPS=${FUSE_STEPS:-}
case $FUSE_STEPS in
'' | read | write) ;;
*) fail "FUSE_STEPS is read or write" ;;
esac
# Kernel reports, as run-vm.sh judges them (plus the panic's own words),
# the stock WARN on a kernel-mode protection-key fault (PK_WARN) among
# them: pks holds it as reported.
BAD='(BUG|WARNING|KASAN|UBSAN|kernel BUG)[: ]|Oops|general protection fault|Kernel panic|Fatal exception|[Uu]nable to handle|scheduling while atomic|sleeping function called|blocked for more than'
kernel_reports() {
	dmesg | grep -cE "$BAD"
}
# say LINE..., show FILE: to the case's output and to the kernel log,
# which the console keeps when the VM dies before the case reports
# (printk_devkmsg on: no rate limit on /dev/kmsg in this boot).
echo on > /proc/sys/kernel/printk_devkmsg
say() {
	echo "$*"
	echo "copypaths: $*" > /dev/kmsg
}
show() {
	local line
	while IFS= read -r line; do
		say "$line"
	done < "$1"
}

# bounded SECONDS OUT CMD...: CMD with output to OUT, its exit code, or
# 124 when it has not ended after SECONDS (left running: a task stuck in
# the kernel cannot be killed, and the case must still report).
bounded() {
	local secs=$1 out=$2 n=0
	shift 2
	rm -f "$out.rc"
	( "$@" > "$out" 2>&1; echo $? > "$out.rc" ) &
	while [ ! -s "$out.rc" ]; do
		n=$((n + 1))
		[ $n -le $((secs * 10)) ] || return 124
		sleep 0.1
	done
	return "$(cat "$out.rc")"
}

pks_ready
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
[ -b "/dev/$blk" ] || fail "no fsdax block device"
# FUSE: a module on 6.1 (in the initramfs, not loaded at boot), built in
# on 6.12.
if [ ! -c /dev/fuse ]; then
	[ -f /lib/modules/fuse.ko ] || fail "no /dev/fuse and no fuse.ko"
	insmod /lib/modules/fuse.ko || fail "insmod fuse.ko"
fi
[ -c /dev/fuse ] || fail "no /dev/fuse"
grep -qw fuse /proc/filesystems || fail "fuse not in /proc/filesystems"
# The VM's loopback interface starts down.
ip link set lo up || fail "cannot bring up lo"

# The data, written unprotected: a root-owned world-readable file to send
# (as in issue 21), a file nobody owns for FUSE's buffer, and two 2 MiB
# areas of dax0.0 (the second for FUSE), each with its own pattern.
mkdir -p /mnt /tmp/fuse
mkfs.ext4 -q -F -b 4096 "/dev/$blk" || fail "mkfs.ext4"
mount -t ext4 -o dax "/dev/$blk" /mnt || fail "mount -o dax"
grep -q "^/dev/$blk /mnt ext4 .*dax" /proc/mounts || fail "/mnt not mounted with DAX"
dd if=/dev/zero of=/mnt/zc bs=1M count=2 conv=fsync 2>/dev/null &&
	pks-zerocopy fill /mnt/zc 0 $SIZE 0x21 &&
	chmod 644 /mnt/zc || fail "cannot write /mnt/zc"
dd if=/dev/zero of=/mnt/fusebuf bs=1M count=2 conv=fsync 2>/dev/null &&
	chown nobody:nogroup /mnt/fusebuf || fail "cannot write /mnt/fusebuf"
pks-zerocopy fill /dev/dax0.0 0 $SIZE 0x22 || fail "cannot fill dax0.0"
# Only for this boot: nobody maps the device (read-write for FUSE's reads).
chmod 666 /dev/dax0.0
sha256sum /mnt/zc > /tmp/zc.sha256
ls -l /mnt/zc /mnt/fusebuf /dev/dax0.0

# fuse_run BUFPATH OFFSET SEED LABEL: a daemon serving SEED's pattern, the
# client as nobody with its buffer at BUFPATH+OFFSET, the unmount; sets
# sum to the checksum of the mapping at the end.
fuse_run() {
	local buf=$1 off=$2 seed=$3 label=$4 daemon rc served n=0
	pks-fuse serve /tmp/fuse $SIZE "$seed" > /tmp/fuse-daemon.out 2>&1 &
	daemon=$!
	until grep -q ' /tmp/fuse fuse' /proc/mounts; do
		n=$((n + 1))
		[ $n -lt 100 ] || { cat /tmp/fuse-daemon.out; fail "$label: the FUSE daemon did not mount"; }
		sleep 0.1
	done
	bounded 120 /tmp/fuse-client.out \
		nobody pks-fuse client /tmp/fuse/data "$buf" "$off" $SIZE "$seed" $FUSE_STEPS
	rc=$?
	show /tmp/fuse-client.out
	[ $rc = 124 ] && fail "$label: the FUSE client did not finish in 120 s"
	bounded 30 /tmp/fuse-umount.out umount /tmp/fuse ||
		fail "$label: umount of the FUSE file system: $(cat /tmp/fuse-umount.out)"
	wait $daemon
	show /tmp/fuse-daemon.out
	[ $rc = 0 ] || fail "$label: pks-fuse client exited $rc"
	case $FUSE_STEPS in
	read) served='[1-9][0-9]* reads .* and 0 writes' ;;
	*) served='[1-9][0-9]* reads .* and [1-9][0-9]* writes' ;;
	esac
	grep -Eq "served $served" /tmp/fuse-daemon.out ||
		fail "$label: the daemon did not serve $served"
	sum=$(sed -n 's/.*: mapping fnv64 \([0-9a-f]*\)$/\1/p' /tmp/fuse-client.out)
}

# zc_run PATH OFFSET SEED LABEL: pks-zerocopy send as nobody; sets sum to
# the checksum of the bytes received.
zc_run() {
	local rc
	bounded 120 /tmp/zc.out \
		nobody pks-zerocopy send "$1" "$2" $SIZE "$3"
	rc=$?
	show /tmp/zc.out
	[ $rc = 0 ] || fail "$4: pks-zerocopy exited $rc"
	sum=$(sed -n 's/.*received [0-9]* bytes, fnv64 \([0-9a-f]*\);.*/\1/p' /tmp/zc.out)
}

# run_path PATH LABEL: one path, checked; sets sum.
run_path() {
	sum=
	case $1 in
	zc-ext4) zc_run /mnt/zc 0 0x21 "$2" ;;
	zc-dax) zc_run /dev/dax0.0 0 0x22 "$2" ;;
	fuse-ext4) fuse_run /mnt/fusebuf 0 0x31 "$2" ;;
	fuse-dax) fuse_run /dev/dax0.0 $((4 << 20)) 0x32 "$2" ;;
	esac
}

# The control: unprotected, every path passes its checks.
expect_eq "dax0.0 unprotected" "$(ns_json "$DAX_NS" .protected)" false
expect_eq "$blk unprotected" "$(ns_json "$FSDAX_NS" .protected)" false
for p in $paths; do
	run_path "$p" "unprotected $p"
	[ -n "$sum" ] || fail "unprotected $p: no checksum"
	eval "sum_$(echo "$p" | tr - _)=$sum"
	say "ok: unprotected $p: data checked, fnv64 $sum"
done

pkstool enable dax0.0 || fail "enable dax0.0"
pkstool enable "$blk" || fail "enable $blk"
expect_eq "dax0.0 protected" "$(ns_json "$DAX_NS" .protected)" true
expect_eq "$blk protected" "$(ns_json "$FSDAX_NS" .protected)" true
expect_eq "dax0.0 strict" "$(ns_json "$DAX_NS" .protection_mode)" strict
expect_eq "$blk strict" "$(ns_json "$FSDAX_NS" .protection_mode)" strict
seq0=$(last_seq)
# The kernel-log check reads what it must (a dmesg reading nothing would
# count no report ever).
dmesg | grep -q 'pks: dax0\.0: .* protected with key' ||
	fail "dmesg does not show the kernel log"
reports0=$(kernel_reports)
for p in $paths; do
	say "protected $p: starting"
	run_path "$p" "protected $p"
	want=$(eval echo "\$sum_$(echo "$p" | tr - _)")
	expect_eq "protected $p: checksum (as unprotected)" "$sum" "$want"
	expect_eq "protected $p: new fault records" \
		"$(pkstool faults --json --since $((seq0 + 1)) | jq length)" 0
	expect_eq "protected $p: new kernel reports" "$(kernel_reports)" "$reports0"
	say "ok: protected $p: data checked, no fault, no kernel report"
done
# The file sent reads back the same through read() too.
sha256sum -c /tmp/zc.sha256 || fail "/mnt/zc changed"
pkstool disable dax0.0 || fail "disable dax0.0"
pkstool disable "$blk" || fail "disable $blk"
umount /mnt || fail "umount /mnt"
chmod 600 /dev/dax0.0
exit 0
