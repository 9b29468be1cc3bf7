#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fuzz, and make check's short run: build the libFuzzer targets of
# tests/fuzz, then for each, first its control (the -DFUZZ_CONTROL build,
# with a planted bug) from an empty corpus, which must be caught within
# FUZZ_CONTROL_SECONDS (120: a deadline, not a duration, since libFuzzer
# stops at the first finding, which takes seconds on an idle machine and
# more on a loaded one), and then the target itself from its seeds in
# tests/fuzz/corpus/<target> for FUZZ_SECONDS (20) or FUZZ_RUNS inputs
# (10 million), whichever ends first. A target whose control is not
# caught fails: its clean run would prove nothing. Prints one
# "PASS|FAIL fuzz/<target>" line each.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$top/build}
seconds=${FUZZ_SECONDS:-20}
runs=${FUZZ_RUNS:-10000000}
control_seconds=${FUZZ_CONTROL_SECONDS:-120}
cd "$top"

out=$build/fuzz
if ! make -s BUILD="$build" fuzz-bin >&2; then
	echo "FAIL fuzz/build: the fuzz targets do not build (see the report above)"
	exit 0
fi

# fuzz NAME BINARY SECONDS CORPUS...: run libFuzzer, its output in
# $out/log/NAME.log and what it finds in $out/artifacts/NAME/; its exit.
fuzz() {
	local name=$1 bin=$2 secs=$3
	shift 3
	rm -rf "$out/artifacts/$name" && mkdir -p "$out/artifacts/$name" "$out/log"
	"$bin" -max_total_time="$secs" -runs="$runs" -timeout=10 \
		-rss_limit_mb=2048 -artifact_prefix="$out/artifacts/$name/" \
		"$@" > "$out/log/$name.log" 2>&1
}

# first_finding LOG: the first thing libFuzzer or a check reported, as
# one printable line (the input it quotes may be anything).
first_finding() {
	local found="fuzz: property violated|runtime error"

	found+="|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)"
	grep -a -m1 -E "$found" "$1" | tr -c '[:print:]\n' '?' | cut -c1-200
}

for t in $(basename -a tests/fuzz/*.c | sed 's/\.c$//'); do
	log=$out/log/$t.log
	# The control starts from nothing: libFuzzer's search, not a seed,
	# must reach the planted bug.
	rm -rf "$out/corpus/$t-control" && mkdir -p "$out/corpus/$t-control"
	if fuzz "$t-control" "$out/$t-control" "$control_seconds" \
		"$out/corpus/$t-control" ||
	   ! grep -q "fuzz: property violated" "$out/log/$t-control.log" ||
	   ! ls "$out/artifacts/$t-control/"crash-* > /dev/null 2>&1; then
		echo "FAIL fuzz/$t: its control was not caught in ${control_seconds}s, so a clean run proves nothing (see $out/log/$t-control.log)"
		continue
	fi
	echo "fuzz/$t: control caught: $(first_finding "$out/log/$t-control.log")" >&2
	# New inputs go to build/, kept from run to run; the seeds stay put.
	mkdir -p "$out/corpus/$t"
	fuzz "$t" "$out/$t" "$seconds" "$out/corpus/$t" "tests/fuzz/corpus/$t"
	rc=$?
	n=$(sed -n 's/^Done \([0-9]*\) runs in .*/\1/p' "$log")
	if [ $rc -eq 0 ] && [ -n "$n" ] && [ "$n" -gt 0 ]; then
		echo "PASS fuzz/$t ($n runs)"
	else
		why=$(first_finding "$log")
		tail -n 40 "$log" >&2
		echo "FAIL fuzz/$t: exit $rc, ${why:-no result line} (see $log and $out/artifacts/$t/)"
	fi
done
