#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: build, unit tests, fuzzing, static checks, then every VM case
# on each kernel in $KERNELS (default "6.1 6.12"), PKS and no-PKS. Ends
# with one "N passed, N failed, N skipped" line; exits 1 when anything
# failed.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
logs=${LOGS:-$top/build/test-logs}
kernels=${KERNELS:-6.1 6.12}
rm -rf "$logs" && mkdir -p "$logs"
passed=0 failed=0 skipped=0

# tally: read "PASS|FAIL|SKIP name..." lines, echo and count them.
tally() {
	local line
	while IFS= read -r line; do
		echo "$line"
		case $line in
		PASS*) passed=$((passed + 1)) ;;
		FAIL*) failed=$((failed + 1)) ;;
		SKIP*) skipped=$((skipped + 1)) ;;
		esac
	done
}

if make -s all > "$logs/build.log" 2>&1; then
	tally <<< "PASS build"
else
	tally <<< "FAIL build: see $logs/build.log"
	echo "$passed passed, $failed failed, $skipped skipped"
	exit 1
fi

# run_units PREFIX PKSTOOL BINARY...: each Criterion binary as PREFIX/name
run_units() {
	local prefix=$1 pkstool=$2 t name log rc n p f c
	shift 2
	for t in "$@"; do
		[ -x "$t" ] || continue
		name=$prefix/$(basename "$t")
		log=$logs/${name//\//-}.log
		PKSTOOL=$pkstool "$t" --verbose=0 > "$log" 2>&1
		rc=$?
		# Criterion: "Synthesis: Tested: N | Passing: N | Failing: N | Crashing: N"
		read -r n p f c < <(sed -n 's/.*Tested: \([0-9]*\) | Passing: \([0-9]*\) | Failing: \([0-9]*\) | Crashing: \([0-9]*\).*/\1 \2 \3 \4/p' "$log")
		if [ $rc -eq 0 ] && [ -n "${n:-}" ] && [ "$n" -gt 0 ] && [ "$p" = "$n" ]; then
			tally <<< "PASS $name ($n cases)"
		else
			tally <<< "FAIL $name: exit $rc, ${f:-?} failing, ${c:-?} crashing (see $log)"
		fi
	done
}

make -s unit > "$logs/unit-build.log" 2>&1 ||
	tally <<< "FAIL unit/build: see $logs/unit-build.log"
run_units unit "$top/build/pkstool" build/unit/*

# The same unit tests under ASan and UBSan, after a control that proves
# each sanitizer stops a program that commits its error here.
if make -s sanitize > "$logs/sanitize-build.log" 2>&1; then
	ok=1
	for m in overflow:AddressSanitizer leak:LeakSanitizer \
		 "ub:runtime error"; do
		if build/sanitize/control "${m%%:*}" > "$logs/sanitize-control.log" 2>&1 ||
		   ! grep -q "${m#*:}" "$logs/sanitize-control.log"; then
			tally <<< "FAIL sanitize/control: ${m%%:*} not caught (see $logs/sanitize-control.log)"
			ok=
		fi
	done
	[ -n "$ok" ] && run_units sanitize "$top/build/sanitize/pkstool" \
		build/sanitize/unit/*
else
	tally <<< "FAIL sanitize/build: see $logs/sanitize-build.log"
fi

# libFuzzer, 20 seconds a target, after a control per target that proves
# a planted bug is found (tests/fuzz/run.sh).
tally < <(tests/fuzz/run.sh 2> "$logs/fuzz.log")

tally < <(tests/lint.sh 2> "$logs/lint.log")
tally < <(tests/install/run.sh 2> "$logs/install.log")
tally < <(tests/install/dkms.sh 2> "$logs/dkms.log")
tally < <(tests/install/completion.sh 2> "$logs/completion.log")

# VM cases: header "# cpu: nopks" picks the no-PKS CPU, "# boot: own"
# gives a case its own boot (it taints or kills things), and so does
# "# vm-shape: SHAPE" for a machine other than the NVDIMM one (run-vm.sh
# reads the header and builds that machine), "# suite: bench" leaves it
# to make bench, "# suite: after-reboot" to the case whose "# then-boot:"
# names it.
shared=() own=() nopks=()
for f in tests/vm/cases/*.sh; do
	c=$(basename "$f" .sh)
	shape=$(sed -n 's/^# vm-shape: //p' "$f")
	if grep -Eq '^# suite: (bench|after-reboot)' "$f"; then
		continue
	elif grep -q '^# cpu: nopks' "$f"; then
		nopks+=("$c")
	elif grep -q '^# boot: own' "$f" || [ "${shape:-nfit}" != nfit ]; then
		own+=("$c")
	else
		shared+=("$c")
	fi
done
# vm_cases KERNEL: every VM of one kernel, one after the other.
vm_cases() {
	local k=$1 c next
	tests/vm/run-vm.sh "$k" pks "$logs/vm-$k-pks" "${shared[@]}"
	for c in "${own[@]}"; do
		tests/vm/run-vm.sh "$k" pks "$logs/vm-$k-$c" "$c"
		# "# then-boot: NEXT": power off, boot the same VM (same NVDIMM
		# backing file) again and run NEXT.
		next=$(sed -n 's/^# then-boot: //p' "tests/vm/cases/$c.sh")
		[ -n "$next" ] && tests/vm/run-vm.sh "$k" pks "$logs/vm-$k-$c" "$next"
	done
	tests/vm/run-vm.sh "$k" nopks "$logs/vm-$k-nopks" "${nopks[@]}"
}

# The kernels' VMs run side by side (VM_PARALLEL=0 runs them in turn): a
# VM emulates its CPUs on one host thread (run-vm.sh), so each kernel has
# a core of the two. The kernels are fetched first, one at a time.
for k in $kernels; do
	tests/vm/fetch-kernel.sh "$k" "${CACHE:-$top/.cache}/kernels" \
		> /dev/null 2> "$logs/fetch-$k.log" ||
		tally <<< "FAIL vm-$k/fetch: see $logs/fetch-$k.log"
done
for k in $kernels; do
	if [ "${VM_PARALLEL:-1}" = 0 ]; then
		vm_cases "$k" > "$logs/vm-$k.verdict" 2>&1
	else
		vm_cases "$k" > "$logs/vm-$k.verdict" 2>&1 &
	fi
done
wait
for k in $kernels; do
	tally < "$logs/vm-$k.verdict"
done

echo "logs: $logs"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
