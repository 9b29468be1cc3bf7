# SPDX-License-Identifier: GPL-2.0
# suite: after-reboot
# pks: protection that survives a power-off, second boot (after
# reboot-1, same NVDIMM backing file): the namespaces come back with the
# same UUIDs, unprotected, and what pkstool-protect.service runs at boot
# (modprobe pks, then pkstool enable --from-config) protects each again
# in its recorded mode.
. /tests/lib.sh

kver=$(uname -r)
[ -e /dev/pks ] && fail "/dev/pks exists before anything loaded it"
setup_namespaces
mount_raw_disk
[ -f /disk/etc/pkstool/protect.conf ] || fail "no records from the first boot"
rm -rf /etc/pkstool "/lib/modules/$kver"
ln -s /disk/etc/pkstool /etc/pkstool
ln -s "/disk/lib/modules/$kver" "/lib/modules/$kver"
expect_eq "same namespaces" \
	"$(ndctl list -N | jq -r '.[] | select(.mode == "devdax" or .mode == "fsdax") | .uuid' | sort | tr '\n' ' ')" \
	"$(tr '\n' ' ' < /disk/uuids)"

# pkstool-protect.service's ExecStartPre and ExecStart.
/sbin/modprobe pks || fail "modprobe pks failed"
expect_eq "unprotected after boot" "$(ns_json "$DAX_NS" .protected)" false
out=$(pkstool enable --from-config 2>&1) || fail "--from-config: $out"
echo "$out"
echo "$out" | grep -q ': 2 enabled, 0 already, 0 missing, 0 drifted, 0 refused' ||
	fail "--from-config summary: $out"
expect_eq "dax0.0 protected" "$(ns_json "$DAX_NS" .protected)" true
expect_eq "dax0.0 mode" "$(ns_json "$DAX_NS" .protection_mode)" relaxed
expect_eq "fsdax protected" "$(ns_json "$FSDAX_NS" .protected)" true
expect_eq "fsdax mode" "$(ns_json "$FSDAX_NS" .protection_mode)" strict
expect_eq "persistent" "$(ns_json "$DAX_NS" .persistent)" true
/sbin/modprobe pks_test || fail "modprobe pks_test failed"
expect_tests_pass stray-write dax0.0
/sbin/modprobe -r pks_test pks || fail "modprobe -r failed"
rm /etc/pkstool "/lib/modules/$kver"
umount /disk
exit 0
