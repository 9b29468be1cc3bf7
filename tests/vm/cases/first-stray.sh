# SPDX-License-Identifier: GPL-2.0
# boot: own
# pks: the first protection-key fault of a boot is recorded like any
# other (issue 22 item 1), and the stock kernel does not WARN for it
# (issue 29 item 3: pks holds that WARN as reported, warnonce.c). Right
# after boot, with dax0.0 protected, ONE fault-safe stray write is
# refused (EFAULT): no WARN, no W taint; the driver has exactly one
# record of it, with the right offset and address, streamed to a monitor
# and reported in the kernel log. The stray is made with pks-ioctl
# stray-edge: its system call comes from the start of a code page that
# follows an inaccessible one, so a dump of the caller's code bytes (as a
# WARN would print) would fault and change CR2 before the fault probe
# sees the stray. The case needs its own boot: only there is its stray
# the first PK fault, the one the stock kernel would WARN for
# (panic-on-warn.sh shows it still does with silence_pk_warn=0).
# require-kmsg: pks: stray write to dax0\.0\+0x3008 \(key [0-9]+\): refused, seq [0-9]+
. /tests/lib.sh

# This stray must be the boot's first PK fault: no WARN before it.
dmesg | grep -Eq "$PK_WARN" && fail "a PK fault WARNed before this case's stray"
pks_ready enable
dmesg | grep -E 'pks: stock WARN at arch/x86/mm/fault\.c:[0-9]+ .* marked reported' ||
	fail "pks did not say it marked the stock WARN reported"
expect_eq "info's stock_pk_warn" \
	"$(pkstool info --json | jq -r '.[0].driver.stock_pk_warn')" silenced
before=$(pks-ioctl guarded-read $((DAX_START + 0x3008))) || fail "guarded read"
[ "$before" != $STRAY_VALUE ] || fail "the word held the stray's value before"
seq0=$(last_seq)

monitor_start
dmesg | grep -Eq "$PK_WARN" && fail "a PK fault WARNed before the stray"
# The one stray of this case: fault-safe, refused with EFAULT.
pks-ioctl stray-edge $((DAX_START + 0x3008)) write
expect_eq "stray write" "$?" 14
monitor_stop
dmesg | grep -Eq "$PK_WARN" && fail "the stock kernel WARNed for the stray"
dmesg | grep -E 'WARNING: .*arch/x86/mm/fault\.c' && fail "a page-fault WARN"
[ $(( $(cat /proc/sys/kernel/tainted) & 512 )) = 0 ] ||
	fail "the kernel is tainted W ($(cat /proc/sys/kernel/tainted))"
echo "ok: no stock WARN, taint $(cat /proc/sys/kernel/tainted) has no W"
expect_eq "data after the stray write" \
	"$(pks-ioctl guarded-read $((DAX_START + 0x3008)))" "$before"

expect_strays "$seq0" write:0x3008
# The address is the direct-map address of the word: PAGE_OFFSET (1 GiB
# aligned under KASLR) plus its physical address.
addr=$(echo "$RECORDS" | jq -r '.[0].address')
base=$(( addr - (DAX_START + 0x3008) ))
[ $(( base & 0x3fffffff )) = 0 ] && [ $(( base >> 63 )) != 0 ] ||
	fail "address $addr is not the direct map's address of $(printf '%#x' $((DAX_START + 0x3008)))"
echo "ok: address $addr = PAGE_OFFSET $(printf '%#x' $base) + physical"
dmesg | grep -E 'pks: stray write' || fail "no 'pks: stray write' line in the kernel log"
pkstool disable dax0.0 || fail "disable"
exit 0
