#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: run the benchmark case in the test VM on each kernel in
# $KERNELS and each vCPU count in $BENCH_SMP (default 2; BENCH_FULL=1
# sweeps 1 2 4 8), then write build/bench/results.json, a PNG plot per
# figure and a Markdown table, which also goes into README.md. Under TCG
# every PKRS write flushes the emulated TLB, so time ratios here do not
# predict hardware; the event counts, asserted by the case, do.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
make -s userspace || exit 1
smp=${BENCH_SMP:-2}
[ -n "${BENCH_FULL:-}" ] && smp="1 2 4 8"
rc=0 runs=()
for k in ${KERNELS:-6.1 6.12}; do
	for n in $smp; do
		out=$top/build/bench-$k-smp$n
		echo "bench: Debian $k, $n vCPUs: booting the VM (a few minutes under emulation)" >&2
		verdict=$(VM_SMP=$n tests/vm/run-vm.sh "$k" pks "$out" bench)
		echo "$verdict"
		grep '^{' "$out/bench.out" | while read -r line; do
			echo "bench: $k/$n: $(echo "$line" | jq -r '.figure + " " + (.pattern // "")')" >&2
		done
		grep -q '^FAIL' <<< "$verdict" && rc=1
		runs+=("$k:$n:$out/bench.out")
	done
done
python3 tests/bench/report.py "$top/build/bench" "${runs[@]}" || rc=1
exit $rc
