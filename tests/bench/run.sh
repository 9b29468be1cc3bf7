#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: run the benchmark case in the test VM on each kernel in
# $KERNELS and print its numbers. Under TCG every PKRS write flushes the
# emulated TLB, so the ratio here does not predict hardware; the event
# counts do.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
make -s userspace || exit 1
rc=0
for k in ${KERNELS:-6.1 6.12}; do
	out=$top/build/bench-$k
	verdict=$(tests/vm/run-vm.sh "$k" pks "$out" bench)
	echo "$verdict"
	grep '^{' "$out/bench.out"
	grep -q '^FAIL' <<< "$verdict" && rc=1
done
exit $rc
