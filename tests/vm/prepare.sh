#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# prepare.sh SERIES DIR: what every test VM of one kernel boots from: the
# newest Debian SERIES kernel (fetched and unpacked once into the cache),
# pks.ko built against its headers, and the initramfs with the module,
# the programs and the cases. Writes DIR/initrd.gz and DIR/kroot (the
# unpacked kernel's path). run-vm.sh prepares its own unless VM_PREPARED
# names such a DIR: make check prepares each kernel once for its twenty
# boots (about 14 seconds a boot saved, most of it the initramfs).
set -uo pipefail

series=$1 dir=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/vm
build=${BUILD:-$top/build}
cache=${CACHE:-$top/.cache}
mkdir -p "$dir"

kroot=$("$here/fetch-kernel.sh" "$series" "$cache/kernels") || {
	echo "cannot fetch the $series kernel"
	exit 1
}
mod=$("$here/build-module.sh" "$kroot" "$build" "$dir/module-build.log") || {
	echo "module build failed for $(basename "$kroot"): see $dir/module-build.log"
	exit 1
}
"$here/mkinitramfs.sh" "$kroot" "$mod/pks.ko" "$build" "$dir/initrd.gz" || {
	echo "initramfs build failed"
	exit 1
}
echo "$kroot" > "$dir/kroot"
