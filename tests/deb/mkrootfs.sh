#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkrootfs.sh CACHE DEBDIR KROOT...: a Debian 12 root file system image
# for the real-boot cases (tests/deb/cases), made with mmdebstrap from
# Debian's packages into a folder, then into an ext4 image: systemd, udev,
# journald, kmod, ndctl, dkms, initramfs-tools and what the packages in
# DEBDIR depend on (so that apt-get installs them offline in the VM). The
# modules of each unpacked kernel KROOT (tests/vm/fetch-kernel.sh) go in,
# and initramfs-tools makes each one's initrd, as on an installed system.
# One unit, pkstest.service (started by systemd.wants=pkstest.service on
# the kernel command line), mounts the payload disk (/dev/vdb) and runs
# the case it names (tests/deb/run-boot.sh). Cached in
# CACHE/rootfs/HASH/{root.img,initrd.img-KVER}, HASH naming the package
# list, the kernels and this script; prints that folder.
set -euo pipefail

cache=${1:?usage: mkrootfs.sh CACHE DEBDIR KROOT...}
debdir=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)

# The packages' own dependencies, read from the .debs, without ours.
deps=$(for d in "$debdir"/pkstool_*.deb "$debdir"/libpks1_*.deb; do
		dpkg-deb -f "$d" Depends
	done | tr ',|' '\n\n' | sed 's/(.*)//;s/[[:space:]]//g' |
	grep -v '^libpks\|^$' | sort -u)
pkgs=$(echo systemd systemd-sysv udev kmod ndctl daxctl dkms \
	initramfs-tools e2fsprogs jq $deps | tr ' ' '\n' | sort -u |
	paste -sd,)
kvers=
for k in "$@"; do kvers="$kvers $(basename "$k")"; done
hash=$(echo "$pkgs $kvers $(sha256sum "$0" | cut -c1-16)" | sha256sum |
       cut -c1-16)
dest=$cache/rootfs/$hash
if [ -f "$dest/.complete" ]; then
	echo "$dest"
	exit 0
fi
echo "mkrootfs: building the Debian 12 image $hash ($pkgs;$kvers)" >&2
rm -rf "$dest" && mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The test unit and its runner, baked into the image.
cat > "$tmp/pkstest.service" <<'UNIT'
[Unit]
Description=pkstool real-boot test case
After=multi-user.target

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/pkstest-run
StandardOutput=journal+console
UNIT
cat > "$tmp/pkstest-run" <<'RUN'
#!/bin/bash
# Mount the payload disk, run the case the kernel command line names,
# report on the second serial line, power off.
case=$(sed -n 's/.*pkstest\.case=\([^ ]*\).*/\1/p' /proc/cmdline)
mkdir -p /run/pkstest
mount -o ro /dev/vdb /run/pkstest
{
	echo "@@@ BOOT $case"
	echo "@@@ OUTPUT $case"
	bash /run/pkstest/cases/"$case".sh 2>&1
	echo "@@@ RESULT $case $?"
	echo "@@@ DONE"
} > /dev/ttyS1
systemctl poweroff --no-block
RUN

# The host's apt sources, so the image comes from the mirror apt uses
# here.
sources=/etc/apt/sources.list.d/debian.sources
[ -f "$sources" ] || sources=/etc/apt/sources.list
hooks=(--customize-hook="cp '$tmp/pkstest.service' \"\$1/etc/systemd/system/\""
       --customize-hook="install -m 755 '$tmp/pkstest-run' \"\$1/usr/local/sbin/\""
       --customize-hook="echo pkstest > \"\$1/etc/hostname\""
       --customize-hook="passwd --root \"\$1\" -d root")
for k in "$@"; do
	kver=$(basename "$k")
	hooks+=(--customize-hook="mkdir -p \"\$1/lib/modules\""
		--customize-hook="cp -a '$k/lib/modules/$kver' \"\$1/lib/modules/\""
		--customize-hook="cp '$k/boot/config-$kver' \"\$1/boot/\""
		--customize-hook="chroot \"\$1\" depmod -a '$kver'"
		--customize-hook="chroot \"\$1\" mkinitramfs -o '/boot/initrd.img-$kver' '$kver'"
		--customize-hook="cp \"\$1/boot/initrd.img-$kver\" '$dest/'")
done
mmdebstrap --variant=apt --include="$pkgs" \
	--aptopt='APT::Install-Recommends "false"' \
	--dpkgopt='path-exclude=/usr/share/doc/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	"${hooks[@]}" bookworm "$tmp/root" "$sources" >&2
truncate -s 3G "$dest/root.img"
mkfs.ext4 -q -L root -d "$tmp/root" "$dest/root.img" >&2
touch "$dest/.complete"
echo "$dest"
