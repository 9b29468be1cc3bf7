# SPDX-License-Identifier: GPL-2.0
#
# Real boot, third (after deb-2 purged, installed build 2 again with no
# records and took pks.ko away): a CPU without PKS (-cpu max,-pks) and no
# module for the running kernel, as on a host where DKMS did not build.
# The boot leaves no failed unit and the journal says why nothing was
# protected; a record file without records is no error; a record that
# cannot be applied here fails its unit, loudly.
# cpu: nopks
. /run/pkstest/cases/lib-deb.sh

no_failed boot
expect_eq "protect enabled" "$(systemctl is-enabled pkstool-protect.service)" enabled
expect_eq "CPU has PKS" "$(pkstool info --json | jq '.[0].cpu_supports_pks')" false
modprobe pks 2>/dev/null && fail "pks.ko loaded: it was meant to be absent"
# No record file: the boot unit is skipped, and says so.
journalctl -b --no-pager -u pkstool-protect.service | tee /tmp/protect.journal
grep -q "ConditionPathExists=/etc/pkstool/protect.conf" /tmp/protect.journal ||
	fail "the journal does not say why pkstool-protect did nothing"

# A record file with no records: the unit runs, without the driver, and
# succeeds, saying there was nothing to protect.
mkdir -p /etc/pkstool
echo "# no records yet" > /etc/pkstool/protect.conf
systemctl start pkstool-protect.service ||
	fail "pkstool-protect failed with no records"
journalctl -b -o cat -u pkstool-protect.service | grep -q "no records: nothing to protect" ||
	fail "the journal lacks 'no records: nothing to protect'"
no_failed "an empty record file"

# A record that cannot be applied (no PKS here) fails its unit loudly.
uuid=$(ndctl list -N | jq -r '[.[] | select(.mode == "devdax")][0].uuid')
[ -n "$uuid" ] && [ "$uuid" != null ] || fail "no devdax namespace UUID"
printf '[protect %s]\nmode=strict\nname=dax0.0\n' "$uuid" > /etc/pkstool/protect.conf
systemctl restart pkstool-protect.service &&
	fail "pkstool-protect succeeded with a record it cannot apply"
expect_eq "protect with a record" "$(systemctl show -P Result pkstool-protect.service)" exit-code
journalctl -b -o cat -u pkstool-protect.service | grep "^pkstool: " | tail -n 3
journalctl -b -o cat -u pkstool-protect.service | grep -q "^pkstool: .*PKS" ||
	fail "the journal does not say PKS is what is missing"
rm /etc/pkstool/protect.conf
systemctl reset-failed pkstool-protect.service
no_failed cleanup
exit 0
