#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkchroot.sh SUITE CACHE: a Debian SUITE chroot (trixie) for building
# modules against kernels whose kbuild tools the bookworm host cannot run:
# 7.3's were built with gcc-14 (-fmin-function-alignment, which gcc-12
# lacks) and link against glibc 2.38 or newer. Made once with mmdebstrap
# into CACHE/chroots/SUITE and reused; made beside its place and renamed
# when whole (the cache is shared). Prints its path.
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
mmdebstrap --variant=apt --quiet \
	--include=gcc-14,gcc,make,kmod,bc,bison,flex,libelf-dev,libssl-dev,zlib1g,pahole,dwarves,xz-utils \
	"$suite" "$tmp" http://deb.debian.org/debian >&2
rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT
touch "$dest/.complete"
echo "$dest"
