# SPDX-License-Identifier: GPL-2.0
# pks: protection that persists. enable --persist records each namespace
# by the UUID ndctl shows, with its mode, in /etc/pkstool/protect.conf
# (a comment added by hand survives the next write); list shows it.
# After rmmod and modprobe (the modules installed where DKMS puts them),
# and after ndctl disable-namespace + enable-namespace, both namespaces
# are unprotected until enable --from-config (what the boot and udev
# units run) protects them again, each in its recorded mode. A mode
# changed by hand and a missing namespace are reported (exit 1) and left
# alone. disable --persist removes the record. Control: with no records,
# --from-config protects nothing. A namespace without a UUID (a shim reads
# every UUID as null) is refused by enable --persist and left as it was.
. /tests/lib.sh

conf=/etc/pkstool/protect.conf
kver=$(uname -r)
rm -rf /etc/pkstool
unload_pks
load_pks_only
setup_namespaces
dax_uuid=$(ndctl list -N -n "$DAX_NS" | jq -r '.[0].uuid')
fs_uuid=$(ndctl list -N -n "$FSDAX_NS" | jq -r '.[0].uuid')
fs_bdev=$(ndctl list -N -n "$FSDAX_NS" | jq -r '.[0].blockdev')
[ -n "$dax_uuid" ] && [ "$dax_uuid" != null ] || fail "ndctl shows no uuid for $DAX_NS"

# protected_as NS MODE: NS is protected in MODE, or unprotected for "-"
protected_as() {
	if [ "$2" = - ]; then
		expect_eq "$1 protected" "$(ns_json "$1" .protected)" false
	else
		expect_eq "$1 protected" "$(ns_json "$1" .protected)" true
		expect_eq "$1 mode" "$(ns_json "$1" .protection_mode)" "$2"
	fi
}

# Control: nothing recorded, nothing protected.
out=$(pkstool enable --from-config 2>&1) || fail "--from-config without records: $out"
echo "$out" | grep -q ': no records: nothing to protect' ||
	fail "--from-config without records: $out"
protected_as "$DAX_NS" -
expect_eq "persistent before" "$(ns_json "$DAX_NS" .persistent)" false

# A namespace without a UUID cannot be recorded: enable --persist refuses
# it before changing anything. pks-no-uuid.so makes every UUID libndctl
# reports read as null (this VM cannot create such a namespace).
nouuid() {
	LD_PRELOAD=/bin/pks-no-uuid.so pkstool "$@"
}
expect_eq "uuid under the shim" "$(nouuid list --json | jq -r ".[] | select(.dev == \"$DAX_NS\") | .uuid")" null
out=$(nouuid enable --persist dax0.0 2>&1)
expect_eq "enable --persist without a UUID exit" "$?" 1
echo "$out" | grep -q "^$DAX_NS: refused: $DAX_NS has no UUID to record it by" ||
	fail "no refusal for a namespace without a UUID: $out"
echo "$out" | grep -q ': 0 enabled, 0 already, 0 changed, 1 refused' ||
	fail "summary without a UUID: $out"
protected_as "$DAX_NS" -
[ -e "$conf" ] && fail "a record file after a refusal: $(cat $conf)"
# Protected already: refused, the mode left as it was.
expect_rc 0 pkstool enable dax0.0
out=$(nouuid enable --persist --mode=relaxed dax0.0 2>&1)
expect_eq "enable --persist --mode without a UUID exit" "$?" 1
protected_as "$DAX_NS" strict
# No record can name it, so disable --persist has nothing to forget.
expect_rc 0 nouuid disable --persist dax0.0
protected_as "$DAX_NS" -
[ -e "$conf" ] && fail "a record file after disable without a UUID: $(cat $conf)"

expect_rc 0 pkstool enable --persist --mode=relaxed dax0.0
grep -qx "\[protect $dax_uuid\]" "$conf" || fail "no [protect $dax_uuid] in $conf: $(cat $conf)"
expect_eq "uuid in list" "$(ns_json "$DAX_NS" .uuid)" "$dax_uuid"
expect_eq "persistent" "$(ns_json "$DAX_NS" .persistent)" true
expect_eq "persistent mode" "$(ns_json "$DAX_NS" .persistent_mode)" relaxed
expect_eq "fsdax not persistent" "$(ns_json "$FSDAX_NS" .persistent)" false
# A note by hand, kept across the next write.
echo "# the database lives here" >> "$conf"
expect_rc 0 pkstool enable --persist "$fs_bdev"
grep -qx "# the database lives here" "$conf" || fail "hand-written comment lost: $(cat $conf)"
grep -qx "\[protect $fs_uuid\]" "$conf" || fail "no record for $FSDAX_NS"
cat "$conf"

# Module reload: protection is gone until the records are applied.
mkdir -p "/lib/modules/$kver/updates/dkms"
cp /lib/modules/pks.ko /lib/modules/pks_test.ko "/lib/modules/$kver/updates/dkms/"
/sbin/depmod -a "$kver" 2>/dev/null || fail "depmod failed"
rmmod pks || fail "rmmod pks failed"
/sbin/modprobe pks || fail "modprobe pks failed"
protected_as "$DAX_NS" -
protected_as "$FSDAX_NS" -
out=$(pkstool enable --from-config 2>&1) || fail "--from-config after reload: $out"
echo "$out" | grep -q ': 2 enabled, 0 already, 0 missing, 0 drifted, 0 refused' ||
	fail "--from-config after reload: $out"
protected_as "$DAX_NS" relaxed
protected_as "$FSDAX_NS" strict
/sbin/modprobe pks_test || fail "modprobe pks_test failed"
expect_tests_pass stray-write dax0.0

# The device goes away and comes back: the udev unit applies its record.
ndctl disable-namespace "$DAX_NS" > /dev/null || fail "disable-namespace failed"
ndctl enable-namespace "$DAX_NS" > /dev/null || fail "enable-namespace failed"
protected_as "$DAX_NS" -
json=$(pkstool enable --from-config --json dax0.0) || fail "--from-config dax0.0 failed"
echo "$json" | emit_json from-config
expect_eq "only dax0.0's record" "$(echo "$json" | jq -r '[.[] | .dev + ":" + .result] | join(",")')" "$DAX_NS:enabled"
protected_as "$DAX_NS" relaxed
protected_as "$FSDAX_NS" strict
# The udev rule starts the unit for every pmem disk, a raw namespace's
# too: no record of it, nothing to do, exit 0 (the unit must not fail).
raw_blk=$(ndctl list -n "$RAW_NS" | jq -r '.[0].blockdev')
json=$(pkstool enable --from-config --json "$raw_blk") ||
	fail "--from-config $raw_blk (a raw namespace) failed: $json"
expect_eq "a raw namespace's records" "$(echo "$json" | jq length)" 0

# Changed by hand: reported, left alone.
expect_rc 0 pkstool enable --mode=strict dax0.0
out=$(pkstool enable --from-config 2>&1)
expect_eq "exit with a changed mode" "$?" 1
echo "$out" | grep -q "^$DAX_NS: drifted ($DAX_NS is protected strict" ||
	fail "no text line for the drifted record: $out"
pkstool enable --from-config --json 2>/dev/null | emit_json from-config
echo "$out" | grep -q "drifted: $DAX_NS is protected strict, recorded relaxed" ||
	fail "changed mode not reported: $out"
protected_as "$DAX_NS" strict
expect_rc 0 pkstool enable --persist --mode=relaxed dax0.0
protected_as "$DAX_NS" relaxed

# Missing: reported with its UUID, the others still applied.
expect_rc 0 pkstool disable "$fs_bdev"
ndctl disable-namespace "$FSDAX_NS" > /dev/null || fail "disable-namespace $FSDAX_NS failed"
out=$(pkstool enable --from-config 2>&1)
expect_eq "exit with a missing namespace" "$?" 1
echo "$out" | grep -q "missing: no namespace has UUID $fs_uuid (recorded as $FSDAX_NS)" ||
	fail "missing namespace not reported: $out"
echo "$out" | grep -q ': 0 enabled, 1 already, 1 missing' || fail "summary: $out"
ndctl enable-namespace "$FSDAX_NS" > /dev/null || fail "enable-namespace $FSDAX_NS failed"

# disable --persist forgets.
expect_rc 0 pkstool disable --persist dax0.0 "$FSDAX_NS"
grep -q '^\[protect' "$conf" && fail "records left: $(cat $conf)"
expect_eq "not persistent" "$(ns_json "$DAX_NS" .persistent)" false
out=$(pkstool enable --from-config 2>&1) || fail "--from-config after forgetting: $out"
echo "$out" | grep -q ': no records: nothing to protect' || fail "after forgetting: $out"
protected_as "$DAX_NS" -

/sbin/modprobe -r pks_test pks || fail "modprobe -r failed"
rm -rf /etc/pkstool "/lib/modules/$kver"
exit 0
