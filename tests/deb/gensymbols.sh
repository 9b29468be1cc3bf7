#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gensymbols.sh DEBDIR: write debian/libpks1.symbols again from the
# libpks1 package in DEBDIR (make deb's build/deb), after lib/libpks.sym
# changed. Review the diff: a symbol gone breaks the 1.x promise (NEWS).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
deb=$(ls "${1:?usage: gensymbols.sh DEBDIR}"/libpks1_*.deb | head -n 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -R "$deb" "$tmp/pkg"
mkdir -p "$tmp/debian"
cp "$top/debian/control" "$top/debian/changelog" "$tmp/debian/"
(cd "$tmp" && dpkg-gensymbols -plibpks1 -P"$tmp/pkg" -O"$tmp/symbols" \
	> /dev/null)
# Every symbol since 1.0, the first release, whatever version built it.
sed -E 's/ [^ ]+$/ 1.0/;1s/ 1.0$/ #MINVER#/' "$tmp/symbols" |
	sed '1a* Build-Depends-Package: libpks-dev' \
	> "$top/debian/libpks1.symbols"
