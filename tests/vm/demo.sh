#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make run: build everything, boot the test VM (KERNEL=6.1 by default, or
# 6.12) on an emulated PKS CPU, and show pkstool working there.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
kernel=${KERNEL:-6.1}
out=$top/build/demo-$kernel
make -s userspace
verdicts=$(tests/vm/run-vm.sh "$kernel" pks "$out" demo)
sed -e '1d' -e '/^@@@ RESULT/d' "$out/demo.out"
echo
echo "$verdicts"
echo "(console log: $out/console.log)"
! grep -q '^FAIL' <<< "$verdicts"
