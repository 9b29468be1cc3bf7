#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: build, unit tests, static checks, then every VM case on each
# kernel in $KERNELS (default "6.1 6.12"), PKS and no-PKS. Ends with one
# "N passed, N failed, N skipped" line; exits 1 when anything failed.
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

make -s unit > "$logs/unit-build.log" 2>&1 ||
	tally <<< "FAIL unit/build: see $logs/unit-build.log"
for t in build/unit/*; do
	[ -x "$t" ] || continue
	name=unit/$(basename "$t")
	PKSTOOL=$top/build/pkstool "$t" --verbose=0 > "$logs/$(basename "$t").log" 2>&1
	rc=$?
	# Criterion: "Synthesis: Tested: N | Passing: N | Failing: N | Crashing: N"
	read -r n p f c < <(sed -n 's/.*Tested: \([0-9]*\) | Passing: \([0-9]*\) | Failing: \([0-9]*\) | Crashing: \([0-9]*\).*/\1 \2 \3 \4/p' \
		"$logs/$(basename "$t").log")
	if [ $rc -eq 0 ] && [ -n "${n:-}" ] && [ "$n" -gt 0 ] && [ "$p" = "$n" ]; then
		tally <<< "PASS $name ($n cases)"
	else
		tally <<< "FAIL $name: exit $rc, ${f:-?} failing, ${c:-?} crashing (see $logs/$(basename "$t").log)"
	fi
done

tally < <(tests/lint.sh 2> "$logs/lint.log")
tally < <(tests/install/run.sh 2> "$logs/install.log")
tally < <(tests/install/dkms.sh 2> "$logs/dkms.log")
tally < <(tests/install/completion.sh 2> "$logs/completion.log")

# VM cases: header "# cpu: nopks" picks the no-PKS CPU, "# boot: own"
# gives a case its own boot (it taints or kills things), "# suite: bench"
# leaves it to make bench, "# suite: after-reboot" to the case whose
# "# then-boot:" names it.
shared=() own=() nopks=()
for f in tests/vm/cases/*.sh; do
	c=$(basename "$f" .sh)
	if grep -Eq '^# suite: (bench|after-reboot)' "$f"; then
		continue
	elif grep -q '^# cpu: nopks' "$f"; then
		nopks+=("$c")
	elif grep -q '^# boot: own' "$f"; then
		own+=("$c")
	else
		shared+=("$c")
	fi
done
for k in $kernels; do
	tally < <(tests/vm/run-vm.sh "$k" pks "$logs/vm-$k-pks" "${shared[@]}")
	for c in "${own[@]}"; do
		tally < <(tests/vm/run-vm.sh "$k" pks "$logs/vm-$k-$c" "$c")
		# "# then-boot: NEXT": power off, boot the same VM (same NVDIMM
		# backing file) again and run NEXT.
		next=$(sed -n 's/^# then-boot: //p' "tests/vm/cases/$c.sh")
		[ -n "$next" ] &&
			tally < <(tests/vm/run-vm.sh "$k" pks "$logs/vm-$k-$c" "$next")
	done
	tally < <(tests/vm/run-vm.sh "$k" nopks "$logs/vm-$k-nopks" "${nopks[@]}")
done

echo "logs: $logs"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
