#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh KROOT BUILD LOG: pks.ko and pks_test.ko built against
# the unpacked kernel KROOT's own headers (tests/vm/fetch-kernel.sh) in
# BUILD/vm/KVER/module, again only when driver/ or VERSION changed since;
# the build's output goes to LOG. Prints that folder.
#
# A kernel built with a compiler newer than the host's (7.3: gcc-14, whose
# kbuild tools also need glibc 2.38 or newer; the bookworm host has gcc-12
# and glibc 2.36) is built for in a trixie chroot (tests/vm/mkchroot.sh,
# cached under CACHE/chroots) with the kernel tree, the module folder and
# /proc bind-mounted at their own paths, so the headers' absolute links
# hold inside too. Which one is read from the headers' own record of the
# compiler (CONFIG_CC_VERSION_TEXT), not from the kernel's version.
set -uo pipefail

kroot=$1 build=$2 log=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$(basename "$kroot")
mod=$build/vm/$kver/module
kdir=$kroot/lib/modules/$kver/build
cache=${CACHE:-$top/.cache}

# The gcc major version the kernel was built with, and the host's.
kgcc=$(sed -n 's/^CONFIG_GCC_VERSION=\([0-9]*\)[0-9][0-9][0-9][0-9]$/\1/p' \
	"$kdir/.config" 2>/dev/null)
hgcc=$(gcc -dumpversion 2>/dev/null | cut -d. -f1)

in_chroot() {
	local root=$1 rc m
	shift
	for m in proc "$kroot" "$mod"; do
		mkdir -p "$root/$m"
	done
	# A private mount namespace: the bind mounts go with the command.
	unshare -m bash -c '
		root=$1 kroot=$2 mod=$3; shift 3
		mount -t proc proc "$root/proc" &&
		mount --bind "$kroot" "$root$kroot" &&
		mount --bind "$mod" "$root$mod" &&
		exec chroot "$root" "$@"' _ "$root" "$kroot" "$mod" "$@"
	rc=$?
	return $rc
}

if [ ! -f "$mod/pks.ko" ] ||
   [ -n "$(find "$top/driver" "$top/VERSION" -newer "$mod/pks.ko" -type f)" ]; then
	rm -rf "$mod" && mkdir -p "$mod" && cp -r "$top/driver/." "$mod/" &&
		cp "$top/VERSION" "$mod/" || exit 1
	if [ -n "$kgcc" ] && [ -n "$hgcc" ] && [ "$kgcc" -gt "$hgcc" ]; then
		root=$("$top/tests/vm/mkchroot.sh" trixie "$cache" 2>"$log") ||
			exit 1
		in_chroot "$root" make -s -C "$kdir" M="$mod" modules \
			> "$log" 2>&1 || exit 1
	else
		make -s -C "$kdir" M="$mod" modules > "$log" 2>&1 || exit 1
	fi
fi
echo "$mod"
