# SPDX-License-Identifier: GPL-2.0
# pks: a pkstool built for another driver ABI (pkstool-other-abi: the
# same code, libpks built for PKS_ABI_VERSION - 1) names both versions
# and exits 3, for every command that needs the driver; the normal build,
# the control, exits 0 on the same driver. The raw ioctl side (the
# driver says its ABI even when it refuses the struct's size) is in
# pks-ioctl malformed, run here too.
. /tests/lib.sh

pks_ready
drv=$(info_json .driver.abi_version)
other=$(pkstool-other-abi version --json | jq -r '.[0].abi_version')
[ "$other" != "$drv" ] || fail "pkstool-other-abi speaks the driver's ABI $drv"
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
