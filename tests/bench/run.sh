#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make bench: run the benchmark case in the test VM on each kernel in
# $KERNELS and each vCPU count in $BENCH_SMP (default 2; BENCH_FULL=1
# sweeps 1 2 4 8), then write build/bench/results.json, a PNG plot per
# figure and a Markdown table, which also goes into docs/benchmarks.md. Under TCG
# every PKRS write flushes the emulated TLB, so time ratios here do not
# predict hardware; the event counts, asserted by the case, do. Each
# figure's progress line is shown while the VM runs it.
# BENCH_FIGURES=NAME+NAME... runs only those figures of guard, task-window,
# switch, irq, pvm, user, ext4, unrelated and cost (the table in
# docs/benchmarks.md then holds only them).
#
# On a host whose CPU has PKS (and whose kernel's build tree is installed),
# BENCH_HOST=1 measures the guard-window figure on the host kernel instead:
# it loads pks.ko and pks_test.ko there and runs the same pks-bench sweep,
# with the same counts asserted. The namespace figures stay in the VM: they
# create and destroy namespaces, which no benchmark may do to a real
# machine's persistent memory.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
make -s userspace || exit 1
rc=0 runs=()

# The guard-window sweep the VM case runs, as ITERATIONS:ACCESS_BYTES.
host_sweep="1000:8 10000:8 2000:4096 200:65536 10:2097152"

bench_host() {
	local kdir=/lib/modules/$(uname -r)/build out=$top/build/bench-host.out
	local run n bytes line pages
	[ "$(build/pkstool info --json | jq '.[0].cpu_supports_pks')" = true ] || {
		echo "bench: BENCH_HOST=1, but this CPU has no PKS" >&2
		return 1
	}
	[ -f "$kdir/Makefile" ] || {
		echo "bench: no build tree for $(uname -r) in $kdir: install its headers" >&2
		return 1
	}
	make -s module KDIR="$kdir" || return 1
	insmod build/module/pks.ko && insmod build/module/pks_test.ko || return 1
	jq -cn --arg k "$(uname -r)" --arg m "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)" \
		--argjson n "$(nproc)" '{figure: "machine", kernel: $k, cpu_model: $m, vcpus: $n}' > "$out"
	for run in $host_sweep; do
		n=${run%%:*} bytes=${run#*:}
		echo "bench: host: CPU window, $bytes bytes x $n" >&2
		line=$(build/vm-bin/pks-bench "$n" "$bytes") || { rc=1; break; }
		echo "$line" >> "$out"
		pages=$(( (bytes + 4095) / 4096 ))
		[ "$(jq .window_pkrs_writes_per_op <<< "$line")" = 2 ] &&
		[ "$(jq .tlb_flushes_per_op <<< "$line")" = $((2 * $(nproc))) ] &&
		[ "$(jq .pte_updates_per_op <<< "$line")" = $((2 * pages)) ] ||
			{ echo "FAIL bench/host: counts: $line"; rc=1; }
	done
	rmmod pks_test pks
	runs+=("host:$(nproc):$out")
}

if [ -n "${BENCH_HOST:-}" ]; then
	bench_host || exit 1
	python3 tests/bench/report.py "$top/build/bench" "${runs[@]}" || rc=1
	exit $rc
fi

. "$top/tests/vm/follow.sh"

# The whole benchmark is one case: give it more than a case's 600 s (a
# host busy with other VMs slows every figure; make bench fails on a
# case that was cut short, as on any other failure).
env=${PKSTEST_ENV:-CASE_TIMEOUT=2400}
[ -n "${BENCH_FIGURES:-}" ] && env=${env:+$env,}BENCH_FIGURES=$BENCH_FIGURES
smp=${BENCH_SMP:-2}
[ -n "${BENCH_FULL:-}" ] && smp="1 2 4 8"
for k in ${KERNELS:-6.1 6.12}; do
	for n in $smp; do
		out=$top/build/bench-$k-smp$n
		echo "bench: Debian $k, $n vCPUs: booting the VM (a few minutes under emulation)" >&2
		# A fresh NVDIMM each time: labels left by an earlier run
		# (a namespace of another size, after a failure) would move
		# the figures' namespaces.
		mkdir -p "$out"
		rm -f "$out/console.log" "$out/nvdimm.img"
		VM_SMP=$n VM_TIMEOUT=${VM_TIMEOUT:-3000} PKSTEST_ENV=$env \
			tests/vm/run-vm.sh "$k" pks "$out" bench \
			> "$out/verdict" &
		vm=$!
		follow $vm "$out/console.log" "pks-bench-progress: " "bench: $k/$n: running "
		wait $vm
		verdict=$(cat "$out/verdict")
		echo "$verdict"
		grep '^{' "$out/bench.out" | while read -r line; do
			echo "bench: $k/$n: $(echo "$line" | jq -r '(.figure // "CPU window") + " " + ((.pattern // .namespace // .access_bytes // "") | tostring)')" >&2
		done
		tests/vm/verdict-ok.sh "$out/verdict" bench || rc=1
		runs+=("$k:$n:$out/bench.out")
	done
	# CXL persistent memory beside the NVDIMM (bench-cxl.sh), when the
	# figures asked for include its cost figure.
	case "+${BENCH_FIGURES:-all}+" in
	*+all+* | *+cost+*) ;;
	*) continue ;;
	esac
	out=$top/build/bench-$k-cxl
	echo "bench: Debian $k, CXL and NVDIMM: booting the VM" >&2
	rm -rf "$out" && mkdir -p "$out"
	tests/vm/run-vm.sh "$k" pks "$out" bench-cxl > "$out/verdict"
	cat "$out/verdict"
	tests/vm/verdict-ok.sh "$out/verdict" bench-cxl || rc=1
	runs+=("$k:2:$out/bench-cxl.out")
done
python3 tests/bench/report.py "$top/build/bench" "${runs[@]}" || rc=1
exit $rc
