# SPDX-License-Identifier: GPL-2.0
# boot: own
# vm-append: panic_on_warn=1
# pks: protection-key faults neither WARN nor taint the kernel (issue 29
# item 3), so a machine booted with panic_on_warn=1 survives them. With
# dax0.0 and the fsdax namespace protected: legitimate I/O that faults
# and is granted (ext4 -o dax on the fsdax namespace, process_vm_readv/
# writev over the protected devdax mapping) and fault-safe strays,
# refused and recorded; then clear_warn_once (which re-arms every
# WARN_ON_ONCE, as fstests does before each test) and the same again. At
# the end the kernel is not tainted W and printed no WARN.
# Control, same boot: panic_on_warn off, pks reloaded with
# silence_pk_warn=0, one fault-safe stray: the stock WARN appears and the
# kernel is tainted W. A reload with the default then finds the WARN
# already reported by the kernel, and leaves it so at unload (on 6.12,
# whose WARN has two copies, only the one that fired).
# expect-kmsg: FIRST-FAULT-WARN
# require-kmsg: pks: stock WARN at arch/x86/mm/fault\.c:[0-9]+ \(.*\) marked reported: protection-key faults are pks's to report
# require-kmsg: pks: stock WARN at arch/x86/mm/fault\.c:[0-9]+ armed again, as before pks loaded
# require-kmsg: pks: silence_pk_warn=0: protection-key faults will WARN
# require-kmsg: pks: stock WARN at arch/x86/mm/fault\.c:[0-9]+ (left marked reported|armed again, as before pks loaded, but for [0-9]+ of its [0-9]+ copies, left marked reported): the kernel had reported (it|them) before pks loaded
. /tests/lib.sh

W=512
tainted_w() {
	[ $(( $(cat /proc/sys/kernel/tainted) & W )) != 0 ]
}

expect_eq "panic_on_warn" "$(cat /proc/sys/kernel/panic_on_warn)" 1
tainted_w && fail "tainted W before the case ($(cat /proc/sys/kernel/tainted))"
pks_ready enable
expect_eq "stock WARN" "$(info_json .driver.stock_pk_warn)" silenced
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
[ -b "/dev/$blk" ] || fail "no fsdax block device"
pkstool enable "$blk" || fail "enable $blk"
mkdir -p /mnt
mkfs.ext4 -q -F -b 4096 "/dev/$blk" || fail "mkfs.ext4 on the protected namespace"
mount -t ext4 -o dax "/dev/$blk" /mnt || fail "mount -o dax"
grep -q "/mnt .*dax" /proc/mounts || fail "not mounted with DAX"
if ! grep -q " /sys/kernel/debug debugfs " /proc/mounts; then
	mount -t debugfs none /sys/kernel/debug || fail "mount debugfs"
fi
[ -w /sys/kernel/debug/clear_warn_once ] || fail "no clear_warn_once"

# round N: legitimate I/O on both namespaces, granted at the fault, and
# two fault-safe strays into dax0.0, refused and recorded.
round() {
	local g0 seq0 n
	g0=$(( $(rule_grants dax-layer) + $(rule_grants pmem-driver) + $(rule_grants held-page) ))
	dd if=/dev/urandom of=/tmp/data bs=1M count=4 2>/dev/null
	cp /tmp/data "/mnt/file$1" && sync || fail "round $1: write to ext4 -o dax"
	echo 3 > /proc/sys/vm/drop_caches
	cmp /tmp/data "/mnt/file$1" || fail "round $1: the file read back differs"
	PKS_PATHS_MAP_MIB=4 pks-paths /dev/dax0.0 process-vm ||
		fail "round $1: process_vm_readv/writev over protected dax0.0"
	n=$(( $(rule_grants dax-layer) + $(rule_grants pmem-driver) + $(rule_grants held-page) - g0 ))
	[ "$n" -gt 0 ] || fail "round $1: no access was granted: nothing faulted"
	echo "ok: round $1: $n legitimate accesses granted at the fault"
	seq0=$(last_seq)
	pks-ioctl stray $((DAX_START + 0x5008)) write >/dev/null
	expect_eq "round $1: stray write" "$?" 14
	pks-ioctl stray $((DAX_START + 0x5010)) read >/dev/null
	expect_eq "round $1: stray read" "$?" 14
	expect_eq "round $1: strays recorded" "$(last_seq)" $((seq0 + 2))
	tainted_w && fail "round $1: tainted W ($(cat /proc/sys/kernel/tainted))"
	dmesg | grep -E 'WARNING:' && fail "round $1: the kernel WARNed"
	echo "ok: round $1: no WARN, taint $(cat /proc/sys/kernel/tainted)"
}

round 1
# fstests does this before every test: every WARN_ON_ONCE fires again.
echo 1 > /sys/kernel/debug/clear_warn_once || fail "clear_warn_once"
round 2
umount /mnt || fail "umount"
pkstool disable --all >/dev/null || fail "disable --all"
tainted_w && fail "tainted W"
dmesg | grep -E "$PK_WARN|WARNING:" && fail "a WARN"
echo "ok: no WARN and no taint W through two rounds and clear_warn_once"

# Control: the stock WARN still fires without pks's mark, so the checks
# above can fail. panic_on_warn goes first: the WARN would panic.
echo 0 > /proc/sys/kernel/panic_on_warn
unload_pks
insmod /lib/modules/pks.ko silence_pk_warn=0 || fail "insmod silence_pk_warn=0"
load_pks
expect_eq "control: stock WARN" "$(info_json .driver.stock_pk_warn)" active
pkstool enable dax0.0 || fail "control: enable"
pks-ioctl stray $((DAX_START + 0x5008)) write >/dev/null
expect_eq "control: stray write" "$?" 14
dmesg | grep -E "$PK_WARN" || fail "control: no stock WARN without the mark"
tainted_w || fail "control: not tainted W after the stock WARN"
echo "ok: control: the stock WARN fired, taint $(cat /proc/sys/kernel/tainted)"
pkstool disable dax0.0 || fail "control: disable"
# The kernel reported it itself now: a default load leaves it reported.
unload_pks
load_pks
expect_eq "after the control: stock WARN" "$(info_json .driver.stock_pk_warn)" silenced
unload_pks
exit 0
