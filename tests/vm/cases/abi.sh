# SPDX-License-Identifier: GPL-2.0
# pks: a pkstool built for another driver ABI (pkstool-other-abi: the
# same code, libpks built for PKS_ABI_VERSION - 1) names both versions
# and exits 3, for every command that needs the driver; the normal build,
# the control, exits 0 on the same driver. The ABI numbers are held
# against an independent source, the uapi header's text (/tests/pks.h,
# copied in by mkinitramfs.sh): what the driver reports by ioctl and in
# its load message, and what libpks was built with. The raw ioctl side
# (the driver says its ABI even when it refuses the struct's size) is in
# pks-ioctl malformed, run here too.
. /tests/lib.sh

pks_ready none
hdr=$(sed -n 's/^#define PKS_ABI_VERSION[[:space:]]*\([0-9][0-9]*\)$/\1/p' /tests/pks.h)
[ -n "$hdr" ] || fail "no PKS_ABI_VERSION in /tests/pks.h"
drv=$(info_json .driver.abi_version)
expect_eq "driver's ABI (ioctl) against the header" "$drv" "$hdr"
loaded=$(dmesg | sed -n 's/.*pks: PKS enabled on .*, ABI \([0-9]*\)$/\1/p' | tail -1)
expect_eq "driver's ABI (load message) against the header" "$loaded" "$hdr"
expect_eq "libpks's ABI against the header" \
	"$(pkstool version --json | jq -r '.[0].abi_version')" "$hdr"
expect_eq "the driver's ABI pkstool version reports" \
	"$(pkstool version --json | jq -r '.[0].driver_abi_version')" "$hdr"
other=$(pkstool-other-abi version --json | jq -r '.[0].abi_version')
expect_eq "pkstool-other-abi's ABI" "$other" $((hdr - 1))
ver=$(pkstool version --json | jq -r ".[0].version")
expect_rc 0 pkstool info
expect_rc 0 pkstool list
for cmd in info "list" "enable dax0.0" "disable dax0.0" faults "test single-key"; do
	out=$(pkstool-other-abi $cmd 2>&1)
	expect_eq "pkstool-other-abi $cmd exit" "$?" 3
	echo "$out" | grep -q "pkstool $ver needs driver ABI $other, loaded driver has $drv" ||
		fail "pkstool-other-abi $cmd: message: $out"
done
expect_eq "protected by the mismatched build" "$(ns_json "$DAX_NS" .protected)" false
expect_rc 0 pks-ioctl malformed
exit 0
