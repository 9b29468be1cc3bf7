#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages, for tests/run-all.sh:
#   run.sh packages OUT     make deb's packages into OUT/1, and a newer
#                           build (VERSION+upgrade1) into OUT/2 for the
#                           upgrade; lintian on OUT/1; the real boot's
#                           image (tests/deb/mkrootfs.sh, cached), made
#                           here while make check's VMs run rather than
#                           by the first real boot while the other
#                           kernel's waits. Checks that the
#                           pkstool package ships the operations
#                           document. Prints deb/build, deb/docs,
#                           deb/lintian, deb/image.
#   run.sh boot SERIES DEBDIR OUT
#                           the real boot (tests/deb/run-boot.sh), three
#                           boots of one VM: deb-1 installs, records and
#                           upgrades, deb-2 checks what the units did,
#                           purges, reinstalls and takes the module away,
#                           deb-3 boots a CPU without PKS and checks the
#                           units fail only where a record cannot be
#                           applied. Prints deb-SERIES/deb-N for each.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/deb

case ${1:-} in
packages)
	out=$2
	ver=$(cat "$top/VERSION")
	if "$here/build.sh" "$out/1" > /dev/null &&
	   PKS_DEB_VERSION=$ver+upgrade1 "$here/build.sh" "$out/2" > /dev/null; then
		echo "PASS deb/build ($(cd "$out/1" && ls ./*.deb | sed 's|^\./||;s|_.*||' | paste -sd' '))"
	else
		echo "FAIL deb/build: dpkg-buildpackage failed (see $out/*/build.log)"
		exit 0
	fi
	# The administrator's document ships in the pkstool package
	# (debian/pkstool.docs; dh_compress may gzip it).
	doc=usr/share/doc/pkstool/operations.md
	files=$(dpkg-deb -c "$out"/1/pkstool_*.deb 2> /dev/null)
	if echo "$files" | grep -E " \./$doc(\.gz)?$" > /dev/null; then
		echo "PASS deb/docs"
	else
		echo "FAIL deb/docs: pkstool's package has no /$doc[.gz]"
	fi
	# Every tag, info and pedantic ones included, unless overridden with
	# its reason in debian/*.lintian-overrides; and lintian itself must
	# succeed: one that fails (no .changes, a check that crashed) prints
	# no tag, and its silence is no pass.
	lint=$(cd "$out/1" && lintian --pedantic --display-info ./*.changes 2>&1)
	lrc=$?
	echo "$lint" > "$out/lintian.log"
	tags=$(echo "$lint" | grep -E '^[EWIPX]: ')
	if [ -n "$tags" ]; then
		echo "$tags" >&2
		echo "FAIL deb/lintian: $(echo "$tags" | wc -l) tags: $(echo "$tags" | head -n 1)"
	elif [ $lrc -ne 0 ]; then
		echo "FAIL deb/lintian: lintian exited $lrc (see $out/lintian.log): $(echo "$lint" | tail -n 1)"
	else
		echo "PASS deb/lintian"
	fi
	if img=$("$here/image.sh" "$out/1" 2> "$out/image.log"); then
		echo "PASS deb/image ($(basename "$img"))"
	else
		echo "FAIL deb/image: see $out/image.log"
	fi
	;;
boot)
	"$here/run-boot.sh" "$2" "$4" "$3" deb-1 deb-2 deb-3
	;;
*)
	echo "usage: run.sh packages OUT | boot SERIES DEBDIR OUT" >&2
	exit 2
	;;
esac
