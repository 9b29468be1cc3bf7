#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh OUT: the Debian packages (make deb). dpkg-buildpackage -us -uc
# -b runs in a copy of the tree's files (tracked and new, not ignored:
# never build/ or .cache), so the checkout's own build/ is untouched; the
# .debs, .buildinfo and .changes land in OUT, with the build log.
# PKS_DEB_VERSION=V builds version V instead of debian/changelog's (the
# upgrade check's newer build).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: build.sh OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/pkstool-$(cat "$top/VERSION")
mkdir -p "$src"
(cd "$top" && git ls-files -co --exclude-standard -z |
	xargs -0 cp --parents -t "$src")
if [ -n "${PKS_DEB_VERSION:-}" ]; then
	sed -i "1s/(.*)/($PKS_DEB_VERSION)/" "$src/debian/changelog"
fi
rm -f "$out"/*.deb "$out"/*.buildinfo "$out"/*.changes
if ! (cd "$src" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	echo "deb: dpkg-buildpackage failed: see $out/build.log" >&2
	exit 1
fi
mv "$work"/*.deb "$work"/*.buildinfo "$work"/*.changes "$out/"
ls "$out"/*.deb
