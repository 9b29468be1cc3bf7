#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkchroot.sh SUITE CACHE: a Debian SUITE chroot (trixie) for building
# modules against kernels whose kbuild tools the bookworm host cannot run:
# 7.3's were built with gcc-14 (-fmin-function-alignment, which gcc-12
# lacks) and link against glibc 2.38 or newer. Made once with mmdebstrap
# into CACHE/chroots/SUITE and reused; made beside its place and renamed
# when whole (the cache is shared). Prints its path.
#
# sid (tests/check-next.sh) gets the suite's default gcc rather than
# gcc-14, which sid may drop: the headers package installed there later
# pulls in the compiler its kernel was built with. Its Release file's
# Valid-Until (a week ahead) is not enforced: the test bed's mirror of
# deb.debian.org can serve a sid older than that, which apt then refuses
# whole; check-next.sh prints the Release's date instead, so a stale sid
# is reported rather than fatal.
set -euo pipefail

suite=${1:?usage: mkchroot.sh SUITE CACHE}
cache=${2:?usage: mkchroot.sh SUITE CACHE}
mkdir -p "$cache/chroots"
dest=$(realpath "$cache/chroots")/$suite
if [ -f "$dest/.complete" ]; then
	echo "$dest"
	exit 0
fi
tmp=$dest.tmp.$$
trap 'rm -rf "$tmp"' EXIT
echo "mkchroot: making a $suite chroot in $dest" >&2
pkgs=gcc,make,kmod,bc,bison,flex,libelf-dev,libssl-dev,zlib1g,pahole,dwarves,xz-utils
opts=()
[ "$suite" = trixie ] && pkgs=gcc-14,$pkgs
[ "$suite" = sid ] && opts=(--aptopt='Acquire::Check-Valid-Until "false"')
mmdebstrap --variant=apt --quiet --include="$pkgs" "${opts[@]}" \
	"$suite" "$tmp" http://deb.debian.org/debian >&2
rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
touch "$dest/.complete"
echo "$dest"
