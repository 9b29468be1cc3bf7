#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# DKMS builds both modules from what make install puts in /usr/src, for
# each Debian kernel in $KERNELS (default "6.1 6.12"), against that
# kernel's header tree (--kernelsourcedir), in a private DKMS tree so the
# host's /var/lib/dkms and /lib/modules are never touched. Each module
# must carry the kernel's vermagic and be signed with the DKMS MOK key
# (a throwaway one here), as on a Secure Boot machine. Control: a build
# for another architecture is refused by BUILD_EXCLUSIVE_ARCH.
# Prints one "PASS|FAIL|SKIP dkms/<check>" line each.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
cache=${CACHE:-$top/.cache}
kernels=${KERNELS-6.1 6.12}
if ! command -v dkms > /dev/null; then
	echo "SKIP dkms/all: dkms is not installed (scripts/install-deps.sh installs it)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ver=$(cat VERSION)
if ! make -s install DESTDIR="$tmp/root" > "$tmp/make.log" 2>&1; then
	cat "$tmp/make.log" >&2
	echo "FAIL dkms/add: make install failed"
	exit 0
fi
mkdir -p "$tmp/tree"
dk() {
	dkms "$@" -m pks -v "$ver" --sourcetree "$tmp/root/usr/src" \
		--dkmstree "$tmp/tree"
}
if dk add > "$tmp/add.log" 2>&1; then
	echo "PASS dkms/add"
else
	cat "$tmp/add.log" >&2
	echo "FAIL dkms/add: dkms add refused /usr/src/pks-$ver"
	exit 0
fi

# modinfo FIELD FILE, for .ko and .ko.xz alike
field() {
	modinfo -F "$1" "$2" 2>/dev/null
}

for series in $kernels; do
	kroot=$(tests/vm/fetch-kernel.sh "$series" "$cache/kernels") || {
		echo "FAIL dkms/$series: cannot fetch the $series kernel"
		continue
	}
	kver=$(basename "$kroot")
	ksrc=$(readlink -f "$kroot/lib/modules/$kver/build")
	signer=$(ls "$kroot"/usr/lib/linux-kbuild-*/scripts/sign-file)
	log=$tmp/build-$kver.log
	if ! sign_file=$signer mok_signing_key=$tmp/mok.key \
	     mok_certificate=$tmp/mok.pub \
	     dk build -k "$kver" --kernelsourcedir "$ksrc" > "$log" 2>&1; then
		cat "$log" >&2
		echo "FAIL dkms/$series: dkms build failed"
		continue
	fi
	why=
	for m in pks pks_test; do
		ko=$(ls "$tmp/tree/pks/$ver/$kver/x86_64/module/$m.ko"* 2>/dev/null)
		if [ -z "$ko" ]; then
			why="$why; no $m.ko"
			continue
		fi
		case $(field vermagic "$ko") in
		"$kver "*) ;;
		*) why="$why; $m vermagic '$(field vermagic "$ko")'" ;;
		esac
		[ "$(field signer "$ko")" = "DKMS module signing key" ] ||
			why="$why; $m signed by '$(field signer "$ko")'"
	done
	if [ -z "$why" ]; then
		echo "PASS dkms/$series: pks.ko and pks_test.ko for $kver, signed with the DKMS key"
	else
		cat "$log" >&2
		echo "FAIL dkms/$series:${why#;}"
	fi
done

# Control: PKS is x86-64 only, so any other architecture is refused
# without building.
kver=$(basename "$(tests/vm/fetch-kernel.sh 6.1 "$cache/kernels")")
ksrc=$(readlink -f "$cache/kernels/$kver/lib/modules/$kver/build")
dk build -k "$kver" -a aarch64 --kernelsourcedir "$ksrc" > "$tmp/arch.log" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q BUILD_EXCLUSIVE "$tmp/arch.log" &&
   [ ! -d "$tmp/tree/pks/$ver/$kver/aarch64" ]; then
	echo "PASS dkms/exclusive-arch"
else
	cat "$tmp/arch.log" >&2
	echo "FAIL dkms/exclusive-arch: aarch64 build exited $rc"
fi
