#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh SERIES CACHE: download the newest stock Debian kernel of a
# series (6.1 or 6.12) with its headers and unpack it under CACHE without
# installing anything into the host's /boot or /lib/modules.
# Prints the unpacked tree's path (CACHE/<version>) on stdout.
set -euo pipefail

series=${1:?usage: fetch-kernel.sh 6.1|6.12 CACHE}
cache=${2:?usage: fetch-kernel.sh 6.1|6.12 CACHE}
mkdir -p "$cache"
cache=$(realpath "$cache")

# Newest ABI of a series that has an unsigned image and amd64 headers.
newest() {
	local pat=$1
	apt-cache pkgnames linux-headers- 2>/dev/null |
		sed -n "s/^linux-headers-\($pat\)-amd64\$/\1/p" | sort -V |
		while read -r v; do
			apt-cache show "linux-image-$v-amd64-unsigned" \
				>/dev/null 2>&1 && echo "$v"
		done | tail -n 1
}

resolve() {
	case $series in
	6.1)	ver=$(newest '6\.1\.0-[0-9]*'); kbuild=linux-kbuild-6.1 ;;
	6.12)	ver=$(newest '6\.12\.[0-9]*+deb[0-9]*')
		kbuild=linux-kbuild-$ver ;;
	*)	echo "fetch-kernel: unknown series '$series' (use 6.1 or 6.12)" >&2
		exit 2 ;;
	esac
}
resolve
# A machine whose package lists were never fetched knows no kernels.
if [ -z "$ver" ] && [ "$(id -u)" -eq 0 ]; then
	apt-get update -q >&2
	resolve
fi
if [ -z "$ver" ]; then
	echo "fetch-kernel: no $series kernel found; run 'apt-get update'" >&2
	exit 1
fi

kver=$ver-amd64
dest=$cache/$kver
if [ -f "$dest/.complete" ]; then
	echo "$dest"
	exit 0
fi

echo "fetch-kernel: fetching Debian kernel $kver" >&2
rm -rf "$dest" "$dest.debs"
mkdir -p "$dest.debs"
(cd "$dest.debs" && apt-get download -q \
	"linux-image-$kver-unsigned" "linux-headers-$kver" \
	"linux-headers-$ver-common" "$kbuild" >&2)
for deb in "$dest.debs"/*.deb; do
	dpkg-deb -x "$deb" "$dest"
done
rm -rf "$dest.debs"

# The headers packages link build/ and source/ and include the -common
# Makefile by absolute /usr/src paths: point them into the unpacked tree.
hdr=$dest/usr/src/linux-headers-$kver
common=$dest/usr/src/linux-headers-$ver-common
sed -i "s|/usr/src/linux-headers-$ver-common|$common|g" "$hdr/Makefile"
ln -sfn "$hdr" "$dest/lib/modules/$kver/build"
ln -sfn "$common" "$dest/lib/modules/$kver/source"
# The kbuild tools (fixdep, modpost, ...) live in the linux-kbuild package.
kb=$(find "$dest/usr/lib" -maxdepth 1 -name 'linux-kbuild-*' | head -n 1)
for d in scripts tools; do
	[ -e "$kb/$d" ] || continue
	find "$hdr" -maxdepth 1 -name "$d" -type l | while read -r l; do
		ln -sfn "$kb/$d" "$l"
	done
done
touch "$dest/.complete"
echo "$dest"
