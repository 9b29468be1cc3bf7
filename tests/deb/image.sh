#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# image.sh DEBDIR: the real boot's Debian 12 image for the packages in
# DEBDIR, with both test kernels (one cache entry serves make check's
# two), made by tests/deb/mkrootfs.sh unless cached, one builder at a
# time. Prints its folder.
set -euo pipefail

debdir=${1:?usage: image.sh DEBDIR}
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${CACHE:-$top/.cache}
kroots=()
for k in 6.1 6.12; do
	kroots+=("$("$top/tests/vm/fetch-kernel.sh" "$k" "$cache/kernels")")
done
mkdir -p "$cache/rootfs"
flock "$cache/rootfs/.lock" "$top/tests/deb/mkrootfs.sh" "$cache" "$debdir" \
	"${kroots[@]}"
