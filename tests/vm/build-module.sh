#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh KROOT BUILD LOG: pks.ko and pks_test.ko built against
# the unpacked kernel KROOT's own headers (tests/vm/fetch-kernel.sh) in
# BUILD/vm/KVER/module, again only when driver/ or VERSION changed since;
# the build's output goes to LOG. Prints that folder.
set -uo pipefail

kroot=$1 build=$2 log=$3
top=$(cd "$(dirname "$0")/../.." && pwd)
kver=$(basename "$kroot")
mod=$build/vm/$kver/module
if [ ! -f "$mod/pks.ko" ] ||
   [ -n "$(find "$top/driver" "$top/VERSION" -newer "$mod/pks.ko" -type f)" ]; then
	rm -rf "$mod" && mkdir -p "$mod" && cp -r "$top/driver/." "$mod/" &&
		cp "$top/VERSION" "$mod/" || exit 1
	make -s -C "$kroot/lib/modules/$kver/build" M="$mod" modules \
		> "$log" 2>&1 || exit 1
fi
echo "$mod"
