#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkroot.sh CACHE FSTESTS: the Debian 12 userspace fstests runs in, as an
# ext4 image the test VM mounts and chroots into (tests/fstests/run.sh):
# bash, perl, the file system tools and what the suite's tests call
# (xfsprogs, e2fsprogs, acl, attr, quota, fio, util-linux...), plus its
# build dependencies, with which fstests from FSTESTS (the unmodified
# snapshot, never written to) is built in the chroot and installed at
# /var/lib/xfstests. Made once into CACHE/fstests/HASH/{root,root.img},
# HASH naming the package list, the snapshot's commit and this script's
# commands;
# made beside its place and renamed when whole (the cache is shared).
# Prints that folder.
set -euo pipefail

cache=${1:?usage: mkroot.sh CACHE FSTESTS}
src=${2:?usage: mkroot.sh CACHE FSTESTS}
here=$(cd "$(dirname "$0")" && pwd)

# The suite's own list (fstests/README, "Ubuntu or Debian") less what
# a VM without a network or a kernel build does not need (git, indent,
# linux-headers, lvm2, dbench, dump), plus xfslibs-dev, python3, mount
# and dmsetup (not in a minimal Debian), xxd, and what the runner uses.
build_deps="gcc make automake autoconf libtool libtool-bin pkg-config
	uuid-dev xfslibs-dev libacl1-dev libaio-dev libcap-dev libgdbm-dev
	libgdbm-compat-dev liburing-dev"
run_deps="bash perl acl attr bc e2fsprogs xfsprogs fio gawk psmisc quota
	sed util-linux uuid-runtime python3 procps kmod file xfsdump
	sqlite3 jq mount dmsetup xxd"
pkgs=$(echo $build_deps $run_deps | tr ' ' '\n' | sort -u | paste -sd,)
commit=$(sed -n 's/.*at commit \([0-9a-f]\{40\}\).*/\1/p' \
	"$(dirname "$src")/fstests.README.md" 2>/dev/null | head -n 1)
[ -n "$commit" ] || commit=$(find "$src" -type f -newer "$src/VERSION" | wc -l)
# The script's commands, not its comments, name the build.
hash=$(echo "$pkgs $commit $(grep -v '^[[:space:]]*#' "$0" | sha256sum |
	cut -c1-16)" | sha256sum | cut -c1-16)
dest=$(realpath -m "$cache/fstests/$hash")
if [ -f "$dest/.complete" ]; then
	echo "$dest"
	exit 0
fi
mkdir -p "$cache/fstests"
tmp=$dest.tmp.$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
echo "mkroot: making the fstests userspace $hash ($pkgs)" >&2
mmdebstrap --variant=apt --quiet --include="$pkgs" bookworm "$tmp/root" \
	http://deb.debian.org/debian >&2

# Build and install fstests inside the chroot, from a copy of the
# snapshot in the chroot (the snapshot itself stays untouched).
mkdir -p "$tmp/root/usr/src/fstests"
cp -a "$src/." "$tmp/root/usr/src/fstests/"
mount -t proc proc "$tmp/root/proc"
trap 'umount "$tmp/root/proc" 2>/dev/null; rm -rf "$tmp"' EXIT
chroot "$tmp/root" /bin/bash -c \
	'cd /usr/src/fstests && make -j2 && make install' > "$tmp/build.log" 2>&1 || {
	echo "mkroot: the fstests build failed: see $tmp/build.log" >&2
	trap - EXIT
	umount "$tmp/root/proc"
	exit 1
}
umount "$tmp/root/proc"
trap 'rm -rf "$tmp"' EXIT
# The suite's users and groups (fsgqa, 123456-fsgqa, fsgqa2).
chroot "$tmp/root" /bin/bash -c 'useradd -m fsgqa; useradd -m fsgqa2;
	useradd 123456-fsgqa' >&2
[ -x "$tmp/root/var/lib/xfstests/check" ] || {
	echo "mkroot: no /var/lib/xfstests/check after make install" >&2
	exit 1
}
rm -rf "$tmp/root/var/cache/apt/archives"/*.deb
mke2fs -q -t ext4 -L fstestsroot -d "$tmp/root" "$tmp/root.img" 3G >&2
rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
touch "$dest/.complete"
echo "$dest"
