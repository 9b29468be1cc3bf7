#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-next.sh (make check-next): build pks.ko and pks_test.ko against the
# newest amd64 kernel headers Debian sid offers, to see the next kernel's
# API breaks before a supported kernel brings them. Not part of make
# check: sid moves every day, so a failure here says what to port next,
# not that the tree is broken.
#
# The build runs in a sid chroot (tests/vm/mkchroot.sh sid, cached under
# CACHE/chroots/sid like 7.3's trixie one), brought up to date on every
# run (apt-get update and upgrade) because a cached sid is stale by
# design; the newest linux-headers-<ver>-amd64 it lists is installed there
# (with the kbuild and the compiler it depends on) and older ones purged.
# The driver is copied to BUILD/next/KVER/module, bind-mounted at the same
# path inside, and built out of tree with make -k so every object's
# errors show, as build-module.sh builds for 7.3.
#
# Prints the kernel and one "PASS|FAIL check-next/KVER/MODULE.ko" line per
# module; on failure the compiler's error lines (de-duplicated, the module
# folder's prefix cut) and modpost's errors follow, indented. The whole
# log is BUILD/next/KVER/build.log. Exits 1 when a module fails.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
cache=${CACHE:-$top/.cache}
build=${BUILD:-$top/build}
suite=sid
start=$(date +%s)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "FAIL check-next/$1"
	exit 1
}

root=$(tests/vm/mkchroot.sh "$suite" "$cache" 2> "$tmp/mkchroot.log") || {
	cat "$tmp/mkchroot.log" >&2
	fail "chroot: cannot make the $suite chroot"
}
# The chroot is in the shared cache: two runs must not run dpkg in it at
# once.
exec 9> "$root.lock"
flock 9

# in_chroot CMD...: CMD inside the chroot, with /proc, the host's DNS
# configuration and the module folder (when set) bind-mounted, in a
# private mount namespace so the mounts go with the command.
mod=
in_chroot() {
	[ -z "$mod" ] || mkdir -p "$root$mod"
	[ -e "$root/etc/resolv.conf" ] || touch "$root/etc/resolv.conf"
	unshare -m bash -c '
		root=$1 mod=$2; shift 2
		mount -t proc proc "$root/proc" &&
		mount --bind /etc/resolv.conf "$root/etc/resolv.conf" &&
		{ [ -z "$mod" ] || mount --bind "$mod" "$root$mod"; } &&
		exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C DEBIAN_FRONTEND=noninteractive "$@"' \
		_ "$root" "$mod" "$@"
}
chroot_apt() {
	in_chroot nice -n 10 apt-get -q -y -o Dpkg::Use-Pty=0 "$@"
}

# Bring sid up to date: a cached chroot's lists and toolchain are old.
if ! chroot_apt update > "$tmp/apt.log" 2>&1 ||
   ! chroot_apt upgrade >> "$tmp/apt.log" 2>&1; then
	cat "$tmp/apt.log" >&2
	fail "apt: apt-get update/upgrade in the $suite chroot failed"
fi
# How old the sid is: the mirror may lag (its Valid-Until is not
# enforced, tests/vm/mkchroot.sh).
reldate=$(sed -n 's/^Date: //p' \
	"$root"/var/lib/apt/lists/*_dists_sid_InRelease 2>/dev/null | head -n 1)

# The newest flavourless amd64 headers: 6.1.0-NN-amd64 and
# 6.NN.N+debNN-amd64 style, not -rt-amd64 or -cloud-amd64. The
# linux-headers-amd64 metapackage's choice is printed beside it: sid may
# carry a newer one before the metapackage moves.
ver=$(in_chroot apt-cache pkgnames linux-headers- 2>/dev/null |
	sed -En 's/^linux-headers-([0-9][^-]*(-[0-9]+)?)-amd64$/\1/p' |
	sort -V | tail -n 1)
[ -n "$ver" ] || fail "headers: no linux-headers-*-amd64 in $suite"
meta=$(in_chroot apt-cache depends linux-headers-amd64 2>/dev/null |
	sed -En 's/^ *Depends: linux-headers-(.*)-amd64$/\1/p' | head -n 1)
kver=$ver-amd64
if ! chroot_apt install --no-install-recommends "linux-headers-$kver" \
	> "$tmp/install.log" 2>&1; then
	cat "$tmp/install.log" >&2
	fail "$kver: cannot install linux-headers-$kver"
fi
# Only the newest headers stay: the cache is shared and each set is
# about 100 MB.
old=$(in_chroot dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' \
	'linux-headers-*' 'linux-kbuild-*' 2>/dev/null |
	awk '$1 == "ii" { print $2 }' | grep -v -e "-$ver-" -e "-$ver\$")
if [ -n "$old" ]; then
	# shellcheck disable=SC2086 # one package name a word
	chroot_apt purge $old > "$tmp/purge.log" 2>&1 || cat "$tmp/purge.log" >&2
fi
kdir=/usr/src/linux-headers-$kver
[ -f "$root$kdir/Makefile" ] || fail "$kver: no $kdir in the chroot"
cc=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$root$kdir/.config")
echo "check-next: $suite of ${reldate:-an unknown date}: newest headers linux-headers-$kver (linux-headers-amd64 depends on ${meta:-nothing}-amd64), built with $cc"

# The module folder: Kbuild writes into its sources, so a fresh copy.
out=$build/next/$kver
mod=$out/module
log=$out/build.log
rm -rf "$mod" && mkdir -p "$mod" && cp -r driver/. "$mod/" &&
	cp VERSION "$mod/" || fail "$kver: cannot copy driver/ to $mod"
in_chroot nice -n 10 make -k -C "$kdir" M="$mod" modules > "$log" 2>&1
rc=$?

# The log with the module folder's prefix cut (literally: a version's
# "+" and "." would be patterns to sed), then the failed objects (kbuild's
# "[...: OBJ] Error N" lines), the compiler's error lines and modpost's
# errors, each once, in order.
awk -v p="$mod/" '{
	while ((i = index($0, p)) > 0)
		$0 = substr($0, 1, i - 1) substr($0, i + length(p))
	print
}' "$log" > "$tmp/log"
sed -En 's/.*\[[^]]*: ([^]: ]+\.o)\] Error [0-9]+.*/\1/p' "$tmp/log" |
	awk '!seen[$0]++' > "$tmp/objs"
grep -E '^[^ :]+:[0-9]+(:[0-9]+)?: (fatal )?error: ' "$tmp/log" |
	awk '!seen[$0]++' > "$tmp/errors"
grep -E '^(ERROR|WARNING): modpost: ' "$tmp/log" | awk '!seen[$0]++' \
	> "$tmp/modpost"

status=$(( rc != 0 ))
for m in pks pks_test; do
	if [ "$m" = pks ]; then
		objs=$(grep -v '^test/' "$tmp/objs")
	else
		objs=$(grep '^test/' "$tmp/objs")
	fi
	why=
	[ -z "$objs" ] ||
		why="$(echo "$objs" | wc -l) object(s) do not compile ($(echo "$objs" | paste -sd, | sed 's/,/, /g'))"
	n=$(grep -c "\[$m\.ko\]" "$tmp/modpost")
	[ "$n" -eq 0 ] || why="${why:+$why; }$n modpost error(s)"
	if [ -z "$why" ] && [ -f "$mod/$m.ko" ]; then
		echo "PASS check-next/$kver/$m.ko"
		continue
	fi
	# No error of its own: kbuild links neither module when modpost or
	# any object fails.
	if [ -z "$why" ] && grep -q '^ *MODPOST ' "$tmp/log"; then
		why="not linked: modpost failed on the other module"
	elif [ -z "$why" ]; then
		why="not linked: the other module's objects failed (no modpost)"
	fi
	status=1
	echo "FAIL check-next/$kver/$m.ko: $why"
done
if [ "$status" -ne 0 ]; then
	if [ -s "$tmp/errors" ]; then
		echo "  compiler errors ($(wc -l < "$tmp/errors"), first 40; all in $log):"
		head -n 40 "$tmp/errors" | sed 's/^/    /'
	fi
	if [ -s "$tmp/modpost" ]; then
		echo "  modpost:"
		sed 's/^/    /' "$tmp/modpost"
	fi
	if [ ! -s "$tmp/errors" ] && [ ! -s "$tmp/modpost" ]; then
		echo "  make exited $rc; the end of $log:"
		tail -n 20 "$log" | sed 's/^/    /'
	fi
fi
echo "check-next: $(( $(date +%s) - start )) s"
exit "$status"
