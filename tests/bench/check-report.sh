#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-report.sh: report.py refuses input it cannot parse or place. Each
# crafted bad line (cut-off JSON, a JSON line that is no object, a figure
# no table knows, one side of a protected/unprotected pair) must make it
# exit 1 naming that file and line, and write nothing; the control, the
# same input without the bad line, must pass (so the check can fail).
# Run by tests/lint.sh; needs python3 and gnuplot. Prints what went wrong
# and exits 1, or exits 0.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

good() {
	echo '@@@ OUTPUT bench'
	echo '{"figure": "machine", "kernel": "6.1.0-0-amd64", "cpu_model": "QEMU", "vcpus": 2}'
	echo 'ok: a log line of the case, not a record'
	echo '{"iterations": 10, "access_bytes": 8, "window_ns_per_op": 50, "pte_flush_ns_per_op": 900, "window_pkrs_writes_per_op": 2, "pte_updates_per_op": 2, "tlb_flushes_per_op": 4}'
	echo '{"figure": "process_vm_readv 64 MiB", "protected": false, "mb_per_s": 100, "bytes_per_call": 67108864}'
	echo '{"figure": "process_vm_readv 64 MiB", "protected": true, "mb_per_s": 90, "bytes_per_call": 67108864, "calls": 4, "pkrs_writes": 8, "fault_probe_hits": 0}'
	echo '{"figure": "process_vm_readv 64 MiB", "throughput_ratio_protected_to_unprotected": 0.9}'
}

# run NAME: report.py on $tmp/NAME.out, into $tmp/NAME and a copy of the
# benchmarks document; its exit code, stderr in $tmp/NAME.err
run() {
	cp "$top/docs/benchmarks.md" "$tmp/$1.md"
	BENCH_DOC=$tmp/$1.md python3 "$top/tests/bench/report.py" "$tmp/$1" \
		"6.1:2:$tmp/$1.out" < /dev/null > /dev/null 2> "$tmp/$1.err"
}

good > "$tmp/control.out"
if ! run control; then
	echo "control: report.py refused good input: $(cat "$tmp/control.err")"
	bad=1
elif ! grep -q '^| process_vm_readv 64 MiB | 64 MiB | 6.1 | 2 |' "$tmp/control.md"; then
	echo "control: the pair is not in the table"
	bad=1
fi

n=0
while IFS= read -r line; do
	n=$((n + 1))
	{ good; echo "$line"; } > "$tmp/bad$n.out"
	at=$(($(good | wc -l) + 1))
	if run "bad$n"; then
		echo "bad line $n accepted: $line"
		bad=1
	elif ! grep -qF "$tmp/bad$n.out:$at: $line" "$tmp/bad$n.err"; then
		echo "bad line $n: no error naming $tmp/bad$n.out:$at: $(cat "$tmp/bad$n.err")"
		bad=1
	elif [ -e "$tmp/bad$n/results.json" ] ||
	     ! cmp -s "$tmp/bad$n.md" "$top/docs/benchmarks.md"; then
		echo "bad line $n: report.py wrote its results anyway"
		bad=1
	fi
done <<'EOF'
{"figure": "ext4 -o dax", "protected": true, "mb_per_s": 1
{"figure": "ext4 -o dax"} trailing
{}
{"figure": "a figure no table knows", "protected": true, "value": 1}
{"figure": "ext4 -o dax", "pattern": "seq-read-4k", "protected": true, "mb_per_s": 50, "bytes_per_call": 4096, "pkrs_writes": 0, "fault_probe_hits": 0}
EOF
exit $bad
