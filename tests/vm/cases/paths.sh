# SPDX-License-Identifier: GPL-2.0
# pks: the kernel's own paths into a process's devdax mapping keep working
# on a protected (strict) namespace, with the right data both ways:
# ptrace PEEKDATA/POKEDATA, /proc/PID/mem, process_vm_readv/writev of the
# whole mapping (64 MiB, PKS_PATHS_MAP_MIB) in one call, vmsplice into a pipe then read() and splice() to a
# file, a core dump with coredump_filter 0x1ff, io_uring READ_FIXED and
# WRITE_FIXED into registered buffers in the mapping, and O_DIRECT to brd
# and to a loop device (whose worker thread makes the copy).
# No path is known to the driver by name: each copies a page it holds (a
# GUP pin, a pipe buffer, a bio), which the held-page rule lets through.
# Each path runs unprotected first (the control: same checks, no grant
# counted), then protected, where the held-page grants must move and no
# fault may be recorded. A stray write in the same boot is still refused.
. /tests/lib.sh

pks_ready
echo '/tmp/core.%p' > /proc/sys/kernel/core_pattern
[ -b /dev/ram0 ] || fail "no /dev/ram0 (brd)"

grants() {
	rule_grants held-page
}

# A loop device over a file in tmpfs: its worker thread does the copy.
truncate -s 8M /tmp/loop.img
losetup /dev/loop0 /tmp/loop.img || fail "losetup"
blockdev_for() {
	[ "$1" = odirect-loop ] && echo /dev/loop0 || echo /dev/ram0
}
paths="ptrace proc-mem process-vm vmsplice coredump io-uring odirect odirect-loop"
# 6.1 refuses to register io_uring fixed buffers in a dax mapping (a
# long-term pin of device pages); every other path must run everywhere.
case $(uname -r) in
6.1.*) may_be_unsupported=io-uring ;;
*) may_be_unsupported= ;;
esac
expect_eq "grants off with nothing protected" "$(info_json .grants.armed)" false
for p in $paths; do
	g0=$(grants "$p")
	pks-paths /dev/dax0.0 "$p" "$(blockdev_for "$p")"
	rc=$?
	eval "rc_$(echo "$p" | tr - _)=$rc"
	[ $rc -eq 0 ] || [ $rc -eq 77 ] || fail "unprotected $p exited $rc"
	[ $rc -eq 77 ] && [ "$p" != "$may_be_unsupported" ] &&
		fail "unprotected $p is unsupported on $(uname -r)"
	expect_eq "unprotected $p: no grant" "$(grants "$p")" "$g0"
done

pkstool enable dax0.0 || fail "enable"
expect_eq "grants armed" "$(info_json .grants.armed)" true
seq0=$(last_seq)
for p in $paths; do
	g0=$(grants "$p")
	pks-paths /dev/dax0.0 "$p" "$(blockdev_for "$p")"
	rc=$?
	want=$(eval echo "\$rc_$(echo "$p" | tr - _)")
	expect_eq "protected $p exit (as unprotected)" "$rc" "$want"
	g1=$(grants "$p")
	if [ "$rc" = 77 ]; then
		echo "ok: $p is unsupported on this kernel with or without protection"
	else
		[ "$g1" -gt "$g0" ] || fail "protected $p: no grant counted ($g0 -> $g1)"
		echo "ok: protected $p: $((g1 - g0)) grants"
	fi
done
expect_eq "no fault recorded for granted accesses" "$(last_seq)" "$seq0"
expect_eq "no task left holding a grant" "$(info_json .grants.tasks_granted)" 0

# Strays from another task are refused and recorded, in the same boot.
out=$(pks-ioctl stray $((DAX_START + 0x3000)) write)
expect_eq "stray write after the paths" "$?" 14
expect_eq "the stray was recorded" "$(last_seq)" $((seq0 + 1))
pkstool disable dax0.0 || fail "disable"
losetup -d /dev/loop0
expect_eq "grants off again" "$(info_json .grants.armed)" false
exit 0
