#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-kernel.sh SERIES CACHE: download the newest stock Debian kernel of a
# series (6.1, 6.12 or 7.3) with its headers and unpack it under CACHE
# without installing anything into the host's /boot or /lib/modules.
# Prints the unpacked tree's path (CACHE/<version>) on stdout.
#
# 6.1 and 6.12 come from the host's own apt lists (bookworm, its security
# and backports suites). 7.3 is trixie-backports', which a bookworm host's
# lists do not reach: it is resolved and downloaded through a private apt
# configuration under CACHE/.apt-trixie (its own sources list, lists and
# package cache), never the host's /etc/apt or /var/lib/apt. Since 6.19
# Debian ships no -unsigned image: linux-image-<ver>-amd64 only depends on
# linux-binary-<ver>-amd64 (vmlinuz) and linux-modules-<ver>-amd64.
set -euo pipefail

series=${1:?usage: fetch-kernel.sh 6.1|6.12|7.3 CACHE}
cache=${2:?usage: fetch-kernel.sh 6.1|6.12|7.3 CACHE}
mkdir -p "$cache"
cache=$(realpath "$cache")

# The private apt configuration for trixie and trixie-backports.
papt=$cache/.apt-trixie
apt_opts=(-o "Dir::Etc::sourcelist=$papt/sources.list"
	  -o Dir::Etc::sourceparts=- -o "Dir::State::lists=$papt/lists"
	  -o "Dir::State::status=$papt/status" -o "Dir::Cache=$papt/cache"
	  -o APT::Architecture=amd64 -o "APT::Architectures::=amd64"
	  -o Debug::NoLocking=1)
papt_update() {
	mkdir -p "$papt/lists/partial" "$papt/cache/archives/partial"
	touch "$papt/status"
	cat > "$papt/sources.list" <<-EOF2
	deb http://deb.debian.org/debian trixie main
	deb http://deb.debian.org/debian trixie-backports main
	EOF2
	apt-get "${apt_opts[@]}" update -q >&2
}

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
	7.3)	ver=$(apt-cache "${apt_opts[@]}" pkgnames linux-headers- \
			2>/dev/null | sed -n \
			's/^linux-headers-\(7\.3\.[0-9]*+deb[0-9]*\)-amd64$/\1/p' |
			sort -V | tail -n 1)
		kbuild=linux-kbuild-$ver ;;
	*)	echo "fetch-kernel: unknown series '$series' (use 6.1, 6.12 or 7.3)" >&2
		exit 2 ;;
	esac
}
resolve
# A machine whose package lists were never fetched knows no kernels.
if [ -z "$ver" ] && [ "$series" = 7.3 ]; then
	papt_update
	resolve
elif [ -z "$ver" ] && [ "$(id -u)" -eq 0 ]; then
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
# Unpacked beside its final place and renamed at the end: the cache is
# shared, and a half-unpacked tree must never look complete.
tmp=$dest.tmp.$$
trap 'rm -rf "$tmp" "$tmp.debs"' EXIT
mkdir -p "$tmp.debs"
if [ "$series" = 7.3 ]; then
	(cd "$tmp.debs" && apt-get "${apt_opts[@]}" download -q \
		"linux-binary-$kver" "linux-modules-$kver" \
		"linux-headers-$kver" "linux-headers-$ver-common" \
		"$kbuild" >&2)
else
	(cd "$tmp.debs" && apt-get download -q \
		"linux-image-$kver-unsigned" "linux-headers-$kver" \
		"linux-headers-$ver-common" "$kbuild" >&2)
fi
for deb in "$tmp.debs"/*.deb; do
	dpkg-deb -x "$deb" "$tmp"
done
rm -rf "$tmp.debs"
# Newer packages put the modules under usr/lib/modules (merged /usr);
# the test bed finds them under lib/modules as for 6.x.
if [ ! -d "$tmp/lib/modules/$kver" ] && [ -d "$tmp/usr/lib/modules/$kver" ]; then
	mkdir -p "$tmp/lib/modules"
	mv "$tmp/usr/lib/modules/$kver" "$tmp/lib/modules/$kver"
fi
# linux-binary-* keeps the image in the modules folder, not in /boot.
if [ ! -e "$tmp/boot/vmlinuz-$kver" ] && [ -f "$tmp/lib/modules/$kver/vmlinuz" ]; then
	mkdir -p "$tmp/boot"
	ln -s "../lib/modules/$kver/vmlinuz" "$tmp/boot/vmlinuz-$kver"
fi
rm -rf "$dest"
mv "$tmp" "$dest"
trap - EXIT

# The headers packages link build/ and source/ and include the -common
# Makefile by absolute /usr/src paths: point them into the unpacked tree.
hdr=$dest/usr/src/linux-headers-$kver
common=$dest/usr/src/linux-headers-$ver-common
# (7.3's also sets KBUILD_OUTPUT to its own /usr/src path.)
sed -i "s|/usr/src/linux-headers-$ver-common|$common|g
	s|=/usr/src/linux-headers-$kver\$|=$hdr|" "$hdr/Makefile"
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
