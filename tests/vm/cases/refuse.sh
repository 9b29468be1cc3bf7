# SPDX-License-Identifier: GPL-2.0
# pks: every range the driver must refuse is refused with its reason and
# nothing changes; the CLI refuses bad names, raw namespaces,
# non-root callers and panic_on_warn while the driver reports the stock
# protection-key WARN active (silence_pk_warn=0); malformed ioctls get
# errors.
. /tests/lib.sh

pks_ready
dax_start=$(sysfs_hex /sys/bus/dax/devices/dax0.0/resource)
dax_size=$(cat /sys/bus/dax/devices/dax0.0/size)
ns_start=$(sysfs_hex /sys/bus/nd/devices/$DAX_NS/resource)
fsdax_start=$(sysfs_hex /sys/bus/nd/devices/$FSDAX_NS/resource)
raw_start=$(sysfs_hex /sys/bus/nd/devices/$RAW_NS/resource)
M2=0x200000

# refuse WANT_ERRNO_TEXT WANT_MESSAGE START LEN [MAPOFF]
refuse() {
	local out
	out=$(pks-ioctl protect "$3" "$4" /dev/dax0.0 ${5:-0})
	echo "$out"
	echo "$out" | grep -q ": $1: .*$2" || fail "expected '$1: $2', got: $out"
}

refuse 'Invalid argument' 'is not persistent memory' 0x1000000 $M2
refuse 'Invalid argument' 'only partly persistent memory' 0xffe00000 0x400000
refuse 'Operation not supported' 'is fsdax memory' "$fsdax_start" $M2
refuse 'No such device' 'no device-dax or fsdax instance owns' "$raw_start" $M2
refuse 'Invalid argument' 'not that device.s data' "$ns_start" $M2
refuse 'Invalid argument' 'crosses namespaces' \
	$(printf '%#x' $((dax_start + dax_size - 0x200000))) 0x400000
refuse 'Invalid argument' 'not aligned to the 2048 KiB direct-map pages' \
	$(printf '%#x' $((dax_start + 0x1000))) $M2 0x1000
refuse 'Invalid argument' 'not page aligned' "$dax_start" 0x1234
dd if=/dev/zero of=/tmp/plain bs=1M count=4 2>/dev/null
out=$(pks-ioctl protect "$dax_start" $M2 /tmp/plain)
echo "$out" | grep -q 'Invalid argument: .*not a mapping of a live device-dax device' ||
	fail "a plain file's mapping was not refused: $out"
out=$(pks-ioctl protect "$dax_start" "$dax_size" /dev/dax0.0) || fail "valid range refused: $out"
pkstool enable dax0.0 || fail "enable dax0.0"
refuse 'Device or resource busy' 'overlaps protected dax0.0' "$dax_start" $M2
pkstool disable dax0.0 || fail "disable dax0.0"
expect_eq "no key left behind" "$(info_json '[.keys[] | select(.state == "free")] | length')" 15

out=$(pkstool enable no-such-ns 2>&1)
expect_eq "unknown namespace exit" "$?" 1
echo "$out" | grep -q "no namespace 'no-such-ns'" || fail "unclear: $out"
for ns in "$RAW_NS"; do
	out=$(pkstool enable "$ns" 2>&1)
	expect_eq "enable $ns exit" "$?" 1
	echo "$out" | grep -q "only devdax and fsdax namespaces can be protected" ||
		fail "unclear refusal of $ns: $out"
	echo "$out" | grep -q '0 enabled, 0 already, 0 changed, 1 refused' ||
		fail "summary for $ns: $out"
done
out=$(su -s /bin/sh nobody -c 'pkstool enable dax0.0' 2>&1)
expect_eq "non-root exit" "$?" 1
echo "$out" | grep -q 'run as root' || fail "non-root: $out"
expect_rc 2 pkstool enable
expect_rc 2 pkstool disable --all dax0.0

# panic_on_warn: with the stock protection-key WARN silenced (the
# default) enable goes ahead; only a driver that reports it active
# (loaded with silence_pk_warn=0) makes the CLI refuse.
expect_eq "stock WARN" "$(info_json .driver.stock_pk_warn)" silenced
echo 1 > /proc/sys/kernel/panic_on_warn
pkstool enable dax0.0
rc=$?
pkstool disable dax0.0
echo 0 > /proc/sys/kernel/panic_on_warn
expect_eq "enable under panic_on_warn, WARN silenced" "$rc" 0
unload_pks
insmod /lib/modules/pks.ko silence_pk_warn=0 || fail "insmod pks.ko silence_pk_warn=0"
load_pks
expect_eq "stock WARN" "$(info_json .driver.stock_pk_warn)" active
pkstool info | grep -q '^stock pk warn: active' || fail "info text: $(pkstool info)"
echo 1 > /proc/sys/kernel/panic_on_warn
out=$(pkstool enable dax0.0 2>&1)
rc=$?
echo 0 > /proc/sys/kernel/panic_on_warn
expect_eq "enable under panic_on_warn" "$rc" 1
echo "$out" | grep -q 'panic_on_warn is set' || fail "panic_on_warn: $out"
expect_eq "still unprotected" "$(ns_json "$DAX_NS" .protected)" false
echo 1 > /proc/sys/kernel/panic_on_warn
pkstool enable --force dax0.0
rc=$?
pkstool disable dax0.0
echo 0 > /proc/sys/kernel/panic_on_warn
expect_eq "enable --force under panic_on_warn" "$rc" 0
# Idempotence where the refusal applies: re-running an applied enable is
# "already", exit 0; a namespace that would need protecting is refused.
pkstool enable dax0.0 >/dev/null || fail "enable before panic_on_warn re-run"
echo 1 > /proc/sys/kernel/panic_on_warn
json=$(pkstool enable --json dax0.0)
rc=$?
json2=$(pkstool enable --json "$FSDAX_NS")
rc2=$?
echo 0 > /proc/sys/kernel/panic_on_warn
pkstool disable dax0.0 >/dev/null || fail "disable after panic_on_warn re-run"
expect_eq "re-run under panic_on_warn exit" "$rc" 0
expect_eq "re-run under panic_on_warn result" "$(echo "$json" | jq -r '.[0].result')" already
expect_eq "new one under panic_on_warn exit" "$rc2" 1
expect_eq "new one under panic_on_warn result" "$(echo "$json2" | jq -r '.[0].result')" refused
echo "$json2" | jq -r '.[0].reason' | grep -q 'panic_on_warn is set' ||
	fail "reason under panic_on_warn: $json2"
unload_pks
load_pks
expect_eq "stock WARN after reload" "$(info_json .driver.stock_pk_warn)" silenced

pks-ioctl malformed || fail "malformed ioctls"
exit 0
