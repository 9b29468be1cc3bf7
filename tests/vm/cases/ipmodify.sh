# SPDX-License-Identifier: GPL-2.0
# pks: every probe of the driver that redirects a function's ip holds the
# function as ftrace's one ip-modifying user, so a livepatch (or any other
# such user) of it is refused instead of silently overriding the
# redirect (issue 30, item 10). With pks.ko loaded, an ftrace_ops with
# FTRACE_OPS_FL_IPMODIFY|SAVE_REGS (pks_test.ko's PKS_TEST_IOC_IPMODIFY)
# is refused with EBUSY on dax_mmap (the dax guard's kprobe, ip-modifying
# through its post-handler) and on page_fault_oops (the driver's own
# fault hook). Controls: the same registration is taken on dax_release,
# which nothing probes, and on dax_mmap itself while kprobes are switched
# off (debugfs kprobes/enabled=0 disarms the guard), and refused again
# once they are back on. Where device_dax maps through
# dax_mmap_prepare() (7.3) the guard and the case use that instead.
# require-kmsg: pks_test: ipmodify: an ip-modifying ftrace_ops on dax_mmap(_prepare)?: -16
# require-kmsg: pks_test: ipmodify: an ip-modifying ftrace_ops on dax_mmap(_prepare)?: 0
# require-kmsg: pks_test: ipmodify: an ip-modifying ftrace_ops on dax_release: 0
. /tests/lib.sh

KPROBES_ON=/sys/kernel/debug/kprobes/enabled
T=/sys/kernel/tracing

load_pks
[ -e $KPROBES_ON ] || mount -t debugfs none /sys/kernel/debug ||
	fail "cannot mount debugfs"
[ -e $T/enabled_functions ] || mount -t tracefs none $T ||
	fail "cannot mount tracefs"
# Whatever happens below, kprobes are on again for the cases after this
# one (the dax guard is a kprobe).
trap 'echo 1 > $KPROBES_ON' EXIT
expect_eq "kprobes enabled at start" "$(cat $KPROBES_ON)" 1
grep -q '^device_dax ' /proc/modules || fail "device_dax is not loaded"
# The function the guard sits on: what device_dax has.
mmapfn=dax_mmap
awk '$3 == "dax_mmap_prepare" { f = 1 } END { exit !f }' /proc/kallsyms &&
	mmapfn=dax_mmap_prepare
# A second ip-modifying user is refused where the driver redirects ip.
for fn in $mmapfn page_fault_oops; do
	pks-ioctl ipmodify $fn
	expect_eq "ipmodify $fn with pks.ko loaded" "$?" 16
done

# The guard is placed on ftrace, and ftrace marks dax_mmap ip-modified
# ("I" in enabled_functions).
grep " $mmapfn+" /sys/kernel/debug/kprobes/list | grep -q FTRACE ||
	fail "no ftrace-based kprobe on $mmapfn: $(cat /sys/kernel/debug/kprobes/list)"
line=$(grep "^$mmapfn " $T/enabled_functions)
echo "enabled_functions: $line"
echo "$line" | grep -q ' I ' || fail "$mmapfn is not marked ip-modified: '$line'"

# Control: taken where the driver does not redirect.
pks-ioctl ipmodify dax_release
expect_eq "ipmodify dax_release (not probed)" "$?" 0

# Control: with kprobes off the guard is disarmed and dax_mmap is free;
# back on, it is held again.
echo 0 > $KPROBES_ON || fail "kprobes/enabled=0 refused"
pks-ioctl ipmodify $mmapfn
expect_eq "ipmodify $mmapfn with kprobes off" "$?" 0
echo 1 > $KPROBES_ON || fail "kprobes/enabled=1 refused"
pks-ioctl ipmodify $mmapfn
expect_eq "ipmodify $mmapfn with kprobes on again" "$?" 16
exit 0
