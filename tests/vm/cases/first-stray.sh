# SPDX-License-Identifier: GPL-2.0
# boot: own
# pks: the first protection-key fault of a boot is recorded like any
# other (issue 22 item 1). Right after boot, with dax0.0 protected, ONE
# fault-safe stray write is refused (EFAULT) and the stock kernel prints
# its one-time WARN for it; the driver has exactly one record of it, with
# the right offset and address, streamed to a monitor and reported in the
# kernel log. The stray is made with pks-ioctl stray-edge: its system call
# comes from the start of a code page that follows an inaccessible one,
# so the WARN's dump of the caller's code bytes faults ("Code: Unable to
# access opcode bytes"), as it does whenever the faulting or the calling
# code borders an unmapped page. That nested fault changes CR2 before the
# fault probe sees the stray. The case needs its own boot: only there is
# its stray the first PK fault, the one that WARNs.
# require-kmsg: WARNING: CPU: [0-9]+ PID: [0-9]+ at arch/x86/mm/fault\.c:[0-9]+
# require-kmsg: Code: Unable to access opcode bytes at
# require-kmsg: pks: stray write to dax0\.0\+0x3008 \(key [0-9]+\): refused, seq [0-9]+
. /tests/lib.sh

# This stray must be the boot's first PK fault: no WARN before it.
dmesg | grep -Eq "$PK_WARN" && fail "a PK fault WARNed before this case's stray"
pks_ready enable
before=$(pks-ioctl guarded-read $((DAX_START + 0x3008))) || fail "guarded read"
[ "$before" != $STRAY_VALUE ] || fail "the word held the stray's value before"
seq0=$(last_seq)

monitor_start
dmesg | grep -Eq "$PK_WARN" && fail "a PK fault WARNed before the stray"
# The one stray of this case: fault-safe, refused with EFAULT.
pks-ioctl stray-edge $((DAX_START + 0x3008)) write
expect_eq "stray write" "$?" 14
monitor_stop
dmesg | grep -Eq "$PK_WARN" || fail "no stock WARN: the stray was not the first PK fault"
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
