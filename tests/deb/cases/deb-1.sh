# SPDX-License-Identifier: GPL-2.0
#
# Real boot, first: install the packages with apt-get (DKMS adds the
# module source; its build is skipped, the image having no kernel headers:
# the module built on the host is in /lib/modules/KVER/extra), record a
# devdax namespace (strict) and an fsdax one (relaxed, ext4 in /etc/fstab
# with -o dax) with enable --persist, upgrade to a newer build, which
# keeps the edited protect.conf, and power off. deb-2 boots again.
. /run/pkstest/cases/lib-deb.sh

no_failed boot
install_build 1 || fail "apt-get install of the packages failed"
ver=$(dpkg-query -W -f '${Version}' pkstool)
expect_eq "DKMS has pks" "$(dkms status pks | cut -d: -f1)" "pks/${ver%%[-+]*}"
expect_eq "protect enabled" "$(systemctl is-enabled pkstool-protect.service)" enabled
expect_eq "monitor enabled" "$(systemctl is-enabled pkstool-monitor.service)" disabled
no_failed install

mkdir -p "/lib/modules/$kver/extra"
cp "$PAYLOAD"/modules/*.ko "/lib/modules/$kver/extra/"
depmod -a || fail "depmod failed"
modprobe pks || fail "modprobe pks failed"
pkstool version
setup_namespaces
pmem=$(ndctl list -N -n "$FSDAX_NS" | jq -r '.[0].blockdev')
mkfs.ext4 -q -F -b 4096 "/dev/$pmem" || fail "mkfs.ext4 /dev/$pmem failed"
mkdir -p "$MNT"
echo "UUID=$(blkid -s UUID -o value "/dev/$pmem") $MNT ext4 dax 0 2" >> /etc/fstab
expect_rc 0 pkstool enable --persist --mode=strict dax0.0
expect_rc 0 pkstool enable --persist --mode=relaxed "$FSDAX_NS"
systemctl daemon-reload
mount "$MNT" || fail "mount $MNT failed"
findmnt -n -o OPTIONS "$MNT" | grep -qw dax || fail "$MNT is not mounted with dax"
echo "# edited by hand: kept by an upgrade" >> /etc/pkstool/protect.conf
cp /etc/pkstool/protect.conf /root/protect.conf.before
no_failed enable

# An enabled monitor runs again after the upgrade, as the new build
# (its process restarted).
systemctl enable --now pkstool-monitor.service ||
	fail "systemctl enable --now pkstool-monitor failed"
expect_eq "monitor before the upgrade" "$(systemctl show -P ActiveState pkstool-monitor)" active
pid_before=$(systemctl show -P MainPID pkstool-monitor)

# The newer build, as automation installs it (--force-confnew takes every
# shipped conffile): the records, written by pkstool and no conffile,
# stay as they are, hand edit included (deb-2 boots with them).
dpkg-query -W -f '${Conffiles}\n' pkstool | grep -q protect.conf &&
	fail "protect.conf is a conffile of pkstool"
install_build 2 -o Dpkg::Options::=--force-confnew ||
	fail "apt-get install of the newer build failed"
new=$(dpkg-query -W -f '${Version}' pkstool)
[ "$new" != "$ver" ] || fail "the upgrade left pkstool at $ver"
cmp /root/protect.conf.before /etc/pkstool/protect.conf ||
	fail "the upgrade to $new changed /etc/pkstool/protect.conf"
echo "ok: upgraded $ver -> $new, protect.conf kept"
expect_eq "protect enabled after the upgrade" \
	"$(systemctl is-enabled pkstool-protect.service)" enabled
expect_eq "monitor after the upgrade" "$(systemctl show -P ActiveState pkstool-monitor)" active
pid_after=$(systemctl show -P MainPID pkstool-monitor)
[ "$pid_after" != 0 ] && [ "$pid_after" != "$pid_before" ] ||
	fail "the monitor was not restarted by the upgrade (MainPID $pid_before, then $pid_after)"
echo "ok: monitor restarted by the upgrade (MainPID $pid_before -> $pid_after)"
# As installed: deb-2 starts it itself.
systemctl disable --now pkstool-monitor.service ||
	fail "systemctl disable --now pkstool-monitor failed"
no_failed upgrade
umount "$MNT"
exit 0
