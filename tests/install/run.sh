#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make install into a staging root, as a package build would: the exact
# list of files for PREFIX=/usr/local and PREFIX=/usr, the installed
# pkstool and libpks (soname, version script, no build RUNPATH), a small
# consumer built with nothing but 'pkg-config --cflags --libs libpks'
# against the staging root and run, then make uninstall, which must leave
# nothing. Prints one "PASS|FAIL install/<check>" line each.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ver=$(cat VERSION)
triplet=$(${CC:-cc} -print-multiarch)

# expected PREFIX LIBDIR UDEVDIR: the files make install must put there
expected() {
	local p=$1 lib=$2 udev=$3 f
	{
		echo "$p/bin/pkstool"
		echo "$lib/libpks.so"
		echo "$lib/libpks.so.1"
		echo "$lib/pkgconfig/libpks.pc"
		echo "$p/include/libpks.h"
		echo "$p/include/libpks/linux/pks.h"
		echo "$p/share/man/man7/pkstool-json.7"
		echo "$p/share/man/man3/libpks.3"
		for f in $(git ls-files 'man/pkstool*.txt'); do
			f=${f#man/}
			[ "$f" = pkstool-json.txt ] && continue
			echo "$p/share/man/man8/${f%.txt}.8"
		done
		for f in $(git ls-files driver | grep -v 'dkms\.conf\.in$'); do
			echo "/usr/src/pks-$ver/${f#driver/}"
		done
		echo "/usr/src/pks-$ver/dkms.conf"
		echo "/usr/src/pks-$ver/VERSION"
		echo "$p/share/bash-completion/completions/pkstool"
		echo "$p/lib/systemd/system/pkstool-protect.service"
		echo "$p/lib/systemd/system/pkstool-protect@.service"
		echo "$p/lib/systemd/system/pkstool-monitor.service"
		echo "$udev/90-pkstool.rules"
	} | sort
}

# installed ROOT: every file and symlink under ROOT, as absolute paths
installed() {
	(cd "$1" && find . -type f -o -type l) | sed 's|^\.||' | sort
}

# check_list NAME ROOT PREFIX LIBDIR UDEVDIR
check_list() {
	local d
	if d=$(diff <(expected "$3" "$4" "$5") <(installed "$2")); then
		echo "PASS install/$1"
	else
		echo "$d" >&2
		echo "FAIL install/$1: the installed files differ (< missing, > extra)"
	fi
}

root=$tmp/root
if ! make -s install DESTDIR="$root" PREFIX=/usr/local > "$tmp/make.log" 2>&1; then
	cat "$tmp/make.log" >&2
	echo "FAIL install/make: make install failed"
	exit 1
fi
check_list files-usr-local "$root" /usr/local /usr/local/lib /etc/udev/rules.d

# The installed binaries: linked to the soname, no RUNPATH into build/,
# the library exporting only versioned pks_ symbols.
lib=$root/usr/local/lib
why=
[ "$(readlink "$lib/libpks.so")" = libpks.so.1 ] || why="libpks.so is not a symlink to libpks.so.1"
# (Here-strings, not pipes into grep -q: with pipefail, grep leaving
# early would fail the pipe.)
grep -q 'Library soname: \[libpks.so.1\]' <<< "$(readelf -d "$lib/libpks.so.1")" ||
	why="$why; no soname libpks.so.1"
dyn=$(readelf -d "$root/usr/local/bin/pkstool")
grep -q 'NEEDED.*\[libpks.so.1\]' <<< "$dyn" ||
	why="$why; pkstool does not need libpks.so.1"
grep -Eq 'R(UN)?PATH' <<< "$dyn" &&
	why="$why; the installed pkstool has a RUNPATH"
syms=$(nm -D --defined-only "$lib/libpks.so.1" | awk '{print $3}')
grep -v '^LIBPKS_' <<< "$syms" | grep -v '^pks_[a-z0-9_]*@@LIBPKS_[0-9]*$' > /dev/null &&
	why="$why; unversioned or foreign exports: $(echo "$syms" | grep -v '@@LIBPKS_' | grep -v '^LIBPKS_' | head -3 | tr '\n' ' ')"
out=$(LD_LIBRARY_PATH=$lib "$root/usr/local/bin/pkstool" version 2>&1) ||
	why="$why; the installed pkstool does not run: $out"
grep -q "$ver" <<< "$out" || why="$why; pkstool version says '$out'"
if [ -z "$why" ]; then
	echo "PASS install/binaries"
else
	echo "FAIL install/binaries: ${why#; }"
fi

# A consumer built from the staging root alone. PKG_CONFIG_LIBDIR leaves
# out /usr/local, so a libpks installed on this host cannot stand in.
pc() {
	PKG_CONFIG_SYSROOT_DIR=$root PKG_CONFIG_PATH=$lib/pkgconfig \
	PKG_CONFIG_LIBDIR=/usr/lib/$triplet/pkgconfig:/usr/share/pkgconfig \
		pkg-config "$@"
}
why=
if ! flags=$(pc --cflags --libs libpks 2>&1); then
	why="pkg-config: $flags"
elif ! ${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$tmp/consumer" \
		tests/install/consumer.c $flags 2> "$tmp/cc.log"; then
	why="the consumer does not build with '$flags': $(head -3 "$tmp/cc.log")"
else
	want="abi $(sed -n 's/^#define PKS_ABI_VERSION[[:space:]]*//p' driver/include/uapi/linux/pks.h) mode strict test0 check-defaults status -2"
	got=$(LD_LIBRARY_PATH=$lib "$tmp/consumer" 2>&1)
	[ "$got" = "$want" ] || why="the consumer printed '$got', expected '$want'"
	grep -q "libpks.so.1 => $lib/libpks.so.1" <<< "$(LD_LIBRARY_PATH=$lib ldd "$tmp/consumer")" ||
		why="$why; the consumer does not load the staged libpks.so.1"
	grep -q -- "-I$root/usr/local/include/libpks" <<< "$flags" ||
		why="$why; pkg-config gave no sysroot include path: $flags"
fi
if [ -z "$why" ]; then
	echo "PASS install/pkg-config-consumer"
else
	echo "FAIL install/pkg-config-consumer: ${why#; }"
fi

# The systemd units, as systemd reads them in the staged root: the boot
# unit and the per-device template (instantiated for dax0.0) run the
# installed pkstool. modprobe is copied in for the check's sake only.
# Control: a unit whose pkstool is missing must fail the same check.
units=$root/usr/local/lib/systemd/system
why=
if ! command -v systemd-analyze > /dev/null; then
	echo "SKIP install/units: no systemd-analyze"
else
	mkdir -p "$root/sbin" "$root/etc/systemd/system"
	cp "$(command -v kmod)" "$root/sbin/modprobe"
	# The host's targets, for the monitor unit's default dependencies.
	cp /lib/systemd/system/*.target "$root/etc/systemd/system/"
	cp "$units/pkstool-protect@.service" "$units/pkstool-protect@dax0.0.service"
	sed 's|/usr/local/bin/pkstool|/usr/local/bin/pkstool-missing|' \
		"$units/pkstool-protect.service" > "$units/pkstool-broken.service"
	verify() {
		systemd-analyze verify --man=no --root="$root" "$@" 2>&1
	}
	out=$(verify /usr/local/lib/systemd/system/pkstool-protect.service \
		/usr/local/lib/systemd/system/pkstool-protect@dax0.0.service \
		/usr/local/lib/systemd/system/pkstool-monitor.service) ||
		why="systemd-analyze verify: $out"
	verify /usr/local/lib/systemd/system/pkstool-broken.service > /dev/null &&
		why="$why; the control unit with a missing pkstool passed"
	grep -qx 'ExecStart=/usr/local/bin/pkstool enable --from-config %i' \
		"$units/pkstool-protect@.service" || why="$why; the template does not run the installed pkstool"
	grep -q 'SYSTEMD_WANTS}+="pkstool-protect@%k.service"' \
		"$root/etc/udev/rules.d/90-pkstool.rules" || why="$why; the udev rule starts no instance"
	rm -f "$root/sbin/modprobe" "$units/pkstool-protect@dax0.0.service" \
		"$units/pkstool-broken.service"
	rm -rf "$root/etc/systemd"
	rmdir "$root/sbin"
	if [ -z "$why" ]; then
		echo "PASS install/units"
	else
		echo "FAIL install/units: ${why#; }"
	fi
fi

make -s uninstall DESTDIR="$root" PREFIX=/usr/local > "$tmp/make.log" 2>&1 ||
	{ cat "$tmp/make.log" >&2; echo "FAIL install/uninstall: make uninstall failed"; }
left=$(installed "$root")
# Control: with nothing installed, the same consumer build must fail.
if [ -n "$left" ]; then
	echo "FAIL install/uninstall: left behind: $(echo "$left" | tr '\n' ' ')"
elif pc --cflags --libs libpks > /dev/null 2>&1; then
	echo "FAIL install/uninstall: pkg-config still finds libpks in the staging root"
else
	echo "PASS install/uninstall"
fi

# A distribution's layout: PREFIX=/usr, multiarch libdir, udev's own dir.
root=$tmp/root-usr
if make -s install DESTDIR="$root" PREFIX=/usr > "$tmp/make.log" 2>&1; then
	check_list files-usr "$root" /usr "/usr/lib/$triplet" /usr/lib/udev/rules.d
	if grep -qx "libdir=/usr/lib/$triplet" "$root/usr/lib/$triplet/pkgconfig/libpks.pc"; then
		echo "PASS install/pc-usr"
	else
		echo "FAIL install/pc-usr: libpks.pc does not name /usr/lib/$triplet"
	fi
else
	cat "$tmp/make.log" >&2
	echo "FAIL install/files-usr: make install PREFIX=/usr failed"
fi

# A plain make on a machine without the running kernel's build tree stops
# and names the headers to install; it never builds for another kernel.
# (RUNNING_KDIR points at a tree that does not exist, as on such a host.)
if env -u KDIR -u KDIR_FALLBACK make -s RUNNING_KDIR="$tmp/no-such-build" BUILD="$tmp/build" module \
	> "$tmp/noheaders.log" 2>&1; then
	echo "FAIL install/no-headers: make built the module without the running kernel's headers"
elif ! grep -q "apt install linux-headers-" "$tmp/noheaders.log" ||
	[ -e "$tmp/build/module/pks.ko" ]; then
	echo "FAIL install/no-headers: no message naming the headers: $(head -c 300 "$tmp/noheaders.log")"
else
	echo "PASS install/no-headers"
fi
