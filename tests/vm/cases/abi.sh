# SPDX-License-Identifier: GPL-2.0
# pks: a pkstool built for another driver ABI (pkstool-other-abi: the
# same code, libpks built for PKS_ABI_VERSION - 1) names both versions
# and exits 3, for every command that needs the driver, and changes
# nothing. The control runs each of those commands with the normal build
# on the same driver: it exits 0, does what was asked, and the checks
# the mismatched build passes fail on its output. The ABI numbers are
# held against an independent source, the uapi header's text
# (/tests/pks.h, copied in by mkinitramfs.sh): what the driver reports
# by ioctl and in its load message, and what libpks was built with. The
# raw ioctl side (the driver says its ABI even when it refuses the
# struct's size) is in pks-ioctl malformed, run here too.
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

# refused RC OUT: whether a run that exited RC printing OUT is the
# mismatch refusal (says each check that failed)
refused() {
	local why=
	[ "$1" = 3 ] || why="exit $1, not 3"
	echo "$2" | grep -q "pkstool $ver needs driver ABI $other, loaded driver has $drv" ||
		why="${why:+$why; }no mismatch message"
	[ -z "$why" ] || { echo "$why"; return 1; }
}

# Each command first with the mismatched build (refused, nothing
# changed), then, the control, with the normal one (done, and the same
# checks fail on it). enable and disable each find the namespace in the
# state they would change.
for cmd in info "list" "enable dax0.0" "disable dax0.0" faults "test single-key"; do
	prot=$(ns_json "$DAX_NS" .protected)
	out=$(pkstool-other-abi $cmd 2>&1)
	why=$(refused $? "$out") || fail "pkstool-other-abi $cmd: $why"
	echo "ok: pkstool-other-abi $cmd refused"
	expect_eq "protected after pkstool-other-abi $cmd" \
		"$(ns_json "$DAX_NS" .protected)" "$prot"
	out=$(pkstool $cmd 2>&1)
	rc=$?
	why=$(refused $rc "$out") && fail "control: pkstool $cmd passes as refused"
	case $why in
	*"not 3; no mismatch message") echo "control: pkstool $cmd: $why" ;;
	*) fail "control: pkstool $cmd: not every check failed: $why" ;;
	esac
	expect_eq "control: pkstool $cmd exit" "$rc" 0
	case $cmd in
	enable*) want=true ;;
	disable*) want=false ;;
	*) want=$prot ;;
	esac
	expect_eq "protected after pkstool $cmd" "$(ns_json "$DAX_NS" .protected)" "$want"
done
expect_rc 0 pks-ioctl malformed
exit 0
