#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: build, unit tests, fuzzing, static checks, then every VM case
# on each kernel in $KERNELS (default "6.1 6.12"; "6.1 6.12 7.3" adds
# trixie-backports' 7.3; empty: no VM), PKS and no-PKS. Ends with one
# "N passed, N failed, N skipped" line; exits 1 when anything failed.
#
# A result is a "PASS|FAIL|SKIP name" line. Each sub-runner (fuzz, lint,
# install, dkms, completion, each VM) must print the results
# tests/manifest names for it (for a VM: one per case file selected for
# it, and boot): a missing one is a FAIL, and so is a sub-runner that
# exits non-zero without a FAIL line. A SKIP counts as skipped only when
# tests/allowed-skips allows it by name, with a reason; any other is a FAIL.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
logs=${LOGS:-$top/build/test-logs}
kernels=${KERNELS-6.1 6.12}
# DEB_KERNELS: the kernels the packages' real boot (tests/deb, a Debian 12
# image) runs on (default: each of $kernels)
deb_kernels=${DEB_KERNELS-$kernels}
rm -rf "$logs" && mkdir -p "$logs"
passed=0 failed=0 skipped=0

# skip_reason NAME: the reason tests/allowed-skips gives for skipping
# NAME; fails when it gives none.
skip_reason() {
	awk -v name="$1" '
		/^#/ { next }
		{
			i = index($0, ": ")
			if (i > 1 && substr($0, 1, i - 1) == name) {
				r = substr($0, i + 2)
				gsub(/^[ \t]+|[ \t]+$/, "", r)
				if (r != "") { print r; found = 1; exit }
			}
		}
		END { exit !found }' tests/allowed-skips 2>/dev/null
}

# tally: read "PASS|FAIL|SKIP name..." lines, echo and count them; a SKIP
# that tests/allowed-skips does not allow becomes a FAIL.
tally() {
	local line name why
	while IFS= read -r line; do
		case $line in
		PASS*)
			echo "$line"
			passed=$((passed + 1)) ;;
		FAIL*)
			echo "$line"
			failed=$((failed + 1)) ;;
		SKIP*)
			name=${line#SKIP }
			name=${name%%[: ]*}
			if why=$(skip_reason "$name"); then
				echo "$line (allowed: $why)"
				skipped=$((skipped + 1))
			else
				why=${line#SKIP "$name"}
				why=${why#:}
				echo "FAIL $name: skipped, and tests/allowed-skips does not allow it:${why:- (no reason given)}"
				failed=$((failed + 1))
			fi ;;
		esac
	done
}

# unit_names, fuzz_names, command_names: what tests/manifest's {unit},
# {fuzz} and {command} stand for, read from the tree.
unit_names() {
	grep -l '^Test(' tests/unit/*.c | xargs -n1 basename | sed 's/\.c$//'
}
fuzz_names() {
	grep -l 'LLVMFuzzerTestOneInput' tests/fuzz/*.c | xargs -n1 basename |
		sed 's/\.c$//'
}
command_names() {
	ls man/pkstool-*.txt | sed 's|^man/pkstool-||;s|\.txt$||' |
		grep -vx json
}

# expected SUB: the results tests/manifest says SUB must print, one a line
expected() {
	local line word n
	line=$(sed -n "s/^$1: //p" tests/manifest)
	for word in $line; do
		case $word in
		*'{unit}'*) for n in $(unit_names); do echo "${word/\{unit\}/$n}"; done ;;
		*'{fuzz}'*) for n in $(fuzz_names); do echo "${word/\{fuzz\}/$n}"; done ;;
		*'{kernel}'*) for n in $kernels; do echo "${word/\{kernel\}/$n}"; done ;;
		*'{command}'*) for n in $(command_names); do echo "${word/\{command\}/$n}"; done ;;
		*) echo "$word" ;;
		esac
	done
}

# sub NAME CMD...: run the sub-runner CMD; its result lines go to
# $logs/NAME.results, its stderr to $logs/NAME.log, its exit status to
# $logs/NAME.rc (judge reads them).
sub() {
	local name=$1
	shift
	rm -f "$logs/$name.rc"
	"$@" > "$logs/$name.results" 2> "$logs/$name.log"
	echo $? > "$logs/$name.rc"
}

# judge NAME EXPECTED...: count what the sub-runner NAME printed, then a
# FAIL for each EXPECTED result it did not print, and one naming NAME
# when it exited non-zero (or left no status) without a FAIL line.
judge() {
	local name=$1 r rc
	shift
	tally < "$logs/$name.results"
	for r in "$@"; do
		awk -v r="$r" '
			$1 == "PASS" || $1 == "FAIL" || $1 == "SKIP" {
				n = $2; sub(/:$/, "", n); if (n == r) found = 1
			}
			END { exit !found }' "$logs/$name.results" ||
			tally <<< "FAIL $r: no result from $name (see $logs/$name.log)"
	done
	rc=$(cat "$logs/$name.rc" 2>/dev/null)
	if [ "$rc" != 0 ] && ! grep -q '^FAIL ' "$logs/$name.results"; then
		tally <<< "FAIL $name: exited ${rc:-without a status} and printed no FAIL line (see $logs/$name.log)"
	fi
}

# run_judge NAME CMD...: sub NAME CMD..., then judge it against the manifest
run_judge() {
	local name=$1
	shift
	sub "$name" "$@"
	grep -q "^$name: " tests/manifest ||
		tally <<< "FAIL $name: tests/manifest names no results for it"
	mapfile -t want < <(expected "$name")
	judge "$name" "${want[@]}"
}

if make -s KDIR_FALLBACK=vm all > "$logs/build.log" 2>&1; then
	tally <<< "PASS build"
else
	tally <<< "FAIL build: see $logs/build.log"
	echo "$passed passed, $failed failed, $skipped skipped"
	exit 1
fi

# run_units PREFIX PKSTOOL DIR: each Criterion binary tests/manifest
# expects, DIR/name, as PREFIX/name (one not built is a FAIL)
run_units() {
	local prefix=$1 pkstool=$2 dir=$3 t name log rc n p f c
	for name in $(expected "$prefix"); do
		[ "$name" = "$prefix/control" ] && continue
		t=$dir/${name#"$prefix"/}
		log=$logs/${name//\//-}.log
		if [ ! -x "$t" ]; then
			tally <<< "FAIL $name: $t was not built"
			continue
		fi
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

# not_run PREFIX WHY: a FAIL for each result tests/manifest expects of
# PREFIX, none of which ran
not_run() {
	local name
	for name in $(expected "$1"); do
		tally <<< "FAIL $name: not run: $2"
	done
}

# host_checks: everything make check runs on this machine rather than in
# a VM: unit tests (plain and sanitized), fuzzing, static checks, install,
# DKMS, completion and the Debian packages. They run while the VMs boot.
host_checks() {
	local ok m
	make -s unit > "$logs/unit-build.log" 2>&1 ||
		tally <<< "FAIL unit/build: see $logs/unit-build.log"
	run_units unit "$top/build/pkstool" build/unit

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
		if [ -n "$ok" ]; then
			tally <<< "PASS sanitize/control"
			run_units sanitize "$top/build/sanitize/pkstool" build/sanitize/unit
		else
			not_run sanitize "the sanitizer control failed"
		fi
	else
		tally <<< "FAIL sanitize/build: see $logs/sanitize-build.log"
		not_run sanitize "the sanitize build failed"
	fi

	# libFuzzer, 20 seconds a target, after a control per target that proves
	# a planted bug is found (tests/fuzz/run.sh).
	run_judge fuzz tests/fuzz/run.sh

	run_judge lint tests/lint.sh
	run_judge install tests/install/run.sh
	KERNELS=$kernels run_judge dkms tests/install/dkms.sh
	run_judge completion tests/install/completion.sh
	# The Debian packages: built (and a newer build, for the upgrade) and
	# lintian here; installed and booted with systemd in each kernel's VMs.
	run_judge deb tests/deb/run.sh packages "$logs/deb"
}

# VM cases: header "# cpu: nopks" picks the no-PKS CPU, "# boot: own"
# gives a case its own boot (it taints or kills things), and so does
# "# vm-shape: SHAPE" for a machine other than the NVDIMM one (run-vm.sh
# reads the header and builds that machine), "# suite: bench" leaves it
# to make bench, "# suite: fstests" to make fstests (tests/fstests/run.sh),
# "# suite: after-reboot" to the case whose "# then-boot:" names it
# (lint/vm-headers fails one that no own-boot case names: it would never
# run).
shared=() own=() nopks=()
for f in tests/vm/cases/*.sh; do
	c=$(basename "$f" .sh)
	shape=$(sed -n 's/^# vm-shape: //p' "$f")
	if grep -Eq '^# suite: (bench|after-reboot|fstests)' "$f"; then
		continue
	elif grep -q '^# cpu: nopks' "$f"; then
		nopks+=("$c")
	elif grep -q '^# boot: own' "$f" || [ "${shape:-nfit}" != nfit ]; then
		own+=("$c")
	else
		shared+=("$c")
	fi
done
# The VM jobs, one a line, "KERNEL shared", "KERNEL own CASE", "KERNEL
# nopks" or "KERNEL deb", longest first (a VM emulates its CPUs on one
# host thread, so a job takes a core; workers that take the long ones
# first end together): the shared boots (about forty cases each), the
# real boots of the packages, the CXL machines, then the rest.
vm_jobs() {
	local k c other=() nfit=()
	for c in "${own[@]}"; do
		if [ "$(vm_tag x "$c")" = vm-x-pks ]; then
			nfit+=("$c")
		else
			other+=("$c")
		fi
	done
	for k in $kernels; do echo "$k shared"; done
	for k in $deb_kernels; do echo "$k deb"; done
	for c in "${other[@]}" "${nfit[@]}"; do
		for k in $kernels; do echo "$k own $c"; done
	done
	[ ${#nopks[@]} -gt 0 ] && for k in $kernels; do echo "$k nopks"; done
	return 0
}

# vm_job KERNEL KIND [CASE]: run one VM job of vm_jobs, a sub-runner:
# vm-K-pks (the shared boot), vm-K-CASE (a case's own boot), vm-K-nopks,
# deb-K (the real boot: a Debian 12 image with systemd, two boots, of
# the packages host_checks builds; its deb.rc says they are done), all
# booting what prepare.sh made once for the kernel.
vm_job() {
	local k=$1 kind=$2 c=${3:-} next
	local -x VM_PREPARED=$logs/vm-$k-prepared
	while [ ! -e "$logs/vm-$k-prepare.done" ]; do
		sleep 2
	done
	case $kind in
	shared)
		# About forty cases: more than one VM's 1200 s on a loaded
		# 2-core host.
		VM_TIMEOUT=${VM_TIMEOUT:-2700} sub "vm-$k-pks" \
			tests/vm/run-vm.sh "$k" pks "$logs/vm-$k-pks" "${shared[@]}" ;;
	own)
		sub "vm-$k-$c" tests/vm/run-vm.sh "$k" pks "$logs/vm-$k-$c" "$c"
		# "# then-boot: NEXT": power off, boot the same VM (same NVDIMM
		# backing file) again and run NEXT.
		next=$(sed -n 's/^# then-boot: //p' "tests/vm/cases/$c.sh")
		[ -n "$next" ] && sub "vm-$k-$next" tests/vm/run-vm.sh "$k" pks "$logs/vm-$k-$c" "$next" ;;
	nopks)
		sub "vm-$k-nopks" tests/vm/run-vm.sh "$k" nopks "$logs/vm-$k-nopks" "${nopks[@]}" ;;
	deb)
		while [ ! -f "$logs/deb.rc" ] && kill -0 $$ 2>/dev/null; do
			sleep 5
		done
		sub "deb-$k" tests/deb/run.sh boot "$k" "$logs/deb" "$logs/deb-$k" ;;
	esac
	return 0
}

# vm_worker QUEUE: take the next job of QUEUE (vm_jobs' lines) until none
# is left; the workers share the count of jobs taken, under a lock.
vm_worker() {
	local queue=$1 n job
	while :; do
		n=$(flock "$queue.lock" sh -c 'n=$(($(cat "$1") + 1)); echo $n > "$1"; echo $n' sh "$queue.taken")
		job=$(sed -n "${n}p" "$queue")
		[ -n "$job" ] || return 0
		# shellcheck disable=SC2086
		vm_job $job
	done
}

# run_vms WORKERS: prepare each kernel's boot files, side by side, and run
# every VM job on WORKERS workers meanwhile: a job waits for its own
# kernel only (7.3's first build of its trixie chroot takes minutes).
run_vms() {
	local k queue=$logs/vm-queue
	for k in $kernels; do
		{
			tests/vm/prepare.sh "$k" "$logs/vm-$k-prepared" \
				> "$logs/vm-$k-prepare.why" ||
				echo "FAIL vm-$k/prepare: $(cat "$logs/vm-$k-prepare.why")" \
					> "$logs/vm-$k-prepare.results"
			touch "$logs/vm-$k-prepare.done"
		} &
	done
	vm_jobs > "$queue"
	echo 0 > "$queue.taken"
	for _ in $(seq "$1"); do
		vm_worker "$queue" &
	done
	wait
}

# vm_tag KERNEL CASE: what run-vm.sh calls the VM CASE runs in, vm-K-pks,
# or vm-K-pks-SHAPE for a machine of another shape ("# vm-shape:")
vm_tag() {
	local shape
	shape=$(sed -n 's/^# vm-shape: //p' "tests/vm/cases/$2.sh")
	[ "${shape:-nfit}" = nfit ] && echo "vm-$1-pks" || echo "vm-$1-pks-$shape"
}

# judge_vms KERNEL: each of vm_cases' VMs against what it had to print:
# one result per case it was given, and its boot (run-vm.sh names them
# vm-K-pks/ or vm-K-nopks/ by CPU), derived from the case files above.
judge_vms() {
	local k=$1 c next tag
	judge "vm-$k-pks" "${shared[@]/#/vm-$k-pks/}" "vm-$k-pks/boot"
	for c in "${own[@]}"; do
		tag=$(vm_tag "$k" "$c")
		judge "vm-$k-$c" "$tag/$c" "$tag/boot"
		next=$(sed -n 's/^# then-boot: //p' "tests/vm/cases/$c.sh")
		[ -n "$next" ] && tag=$(vm_tag "$k" "$next") &&
			judge "vm-$k-$next" "$tag/$next" "$tag/boot"
	done
	[ ${#nopks[@]} -gt 0 ] &&
		judge "vm-$k-nopks" "${nopks[@]/#/vm-$k-nopks/}" "vm-$k-nopks/boot"
	case " $deb_kernels " in
	*" $k "*)
		judge "deb-$k" $(ls tests/deb/cases/deb-*.sh | xargs -n1 basename |
				 sed "s|^|deb-$k/|;s|\.sh$||") ;;
	esac
	return 0
}

# The VMs run beside host_checks, on VM_WORKERS workers (default 2: a
# VM takes a core, and host_checks, mostly one thread or waiting on the
# network, takes a share of both; VM_PARALLEL=0: host_checks first, then
# one worker). The kernels are fetched first, one at a time.
for k in $kernels; do
	tests/vm/fetch-kernel.sh "$k" "${CACHE:-$top/.cache}/kernels" \
		> /dev/null 2> "$logs/fetch-$k.log" ||
		tally <<< "FAIL vm-$k/fetch: see $logs/fetch-$k.log"
done
if [ "${VM_PARALLEL:-1}" = 0 ]; then
	host_checks
	run_vms 1
else
	run_vms "${VM_WORKERS:-2}" &
	host_checks
	wait
fi
for k in $kernels; do
	[ -f "$logs/vm-$k-prepare.results" ] && tally < "$logs/vm-$k-prepare.results"
	judge_vms "$k"
done

echo "logs: $logs"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
