#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make fstests (issue 33): fstests on protected DAX. For each kernel in
# KERNELS (6.1 6.12), one VM (tests/vm/cases/fstests.sh) runs the groups
# in FSTESTS_GROUPS (dax) on each file system in FSTESTS_FS (ext4 xfs),
# on two fsdax namespaces of the emulated NVDIMM mounted -o dax: first
# unprotected, then with both namespaces protected (strict) from before
# mkfs to after the last test. fstests is the unmodified snapshot in
# FSTESTS (/work/shared/fstests), built with a Debian 12 userspace into
# the cache (tests/fstests/mkroot.sh); the VM boots the usual busybox
# initramfs and runs the suite chrooted into that userspace on its
# virtio disk. A progress line per test while the VM runs; at the end
# tests/fstests/report.py compares the two result sets (they must be
# equal; an unprotected failure must be listed with its reason in
# tests/fstests/known-failures-KERNEL) and writes the summary table
# build/fstests/summary.{md,json}. Not part of make check (time).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
out=$top/build/fstests
cache=${CACHE:-$top/.cache}
src=${FSTESTS:-/work/shared/fstests}
kernels=${KERNELS:-6.1 6.12}
groups=${FSTESTS_GROUPS:-dax}
fslist=${FSTESTS_FS:-ext4 xfs}
mkdir -p "$out"
make -s KDIR_FALLBACK=vm all vm-bin > "$out/make.log" 2>&1 || {
	echo "FAIL fstests/build: see $out/make.log"
	exit 1
}
echo "fstests: the userspace image (built once into $cache/fstests)" >&2
img=$(tests/fstests/mkroot.sh "$cache" "$src") || {
	echo "FAIL fstests/image: tests/fstests/mkroot.sh failed"
	exit 1
}

. "$top/tests/vm/follow.sh"

rc=0 runs=()
env="CASE_TIMEOUT=${FSTESTS_CASE_TIMEOUT:-10000}"
env="$env,FSTESTS_GROUPS=$(echo $groups | tr ' ,' '::'),FSTESTS_FS=$(echo $fslist | tr ' ,' '::')"
for k in $kernels; do
	vm=$out/vm-$k
	mkdir -p "$vm"
	rm -f "$vm/console.log" "$vm/nvdimm.img" "$vm/fstests.out"
	echo "fstests: Debian $k: booting the VM (groups: $groups; file systems: $fslist)" >&2
	start=$(date +%s)
	VM_DISK=$img/root.img VM_TIMEOUT=${VM_TIMEOUT:-10800} PKSTEST_ENV=$env \
		tests/vm/run-vm.sh "$k" pks "$vm" fstests > "$vm/verdict" &
	pid=$!
	follow $pid "$vm/console.log" "@@fstests " "fstests: $k: "
	wait $pid
	echo "$(( $(date +%s) - start ))" > "$vm/seconds"
	cat "$vm/verdict"
	tests/vm/verdict-ok.sh "$vm/verdict" fstests || rc=1
	runs+=("$k=$vm/fstests.out")
done
python3 tests/fstests/report.py "$out" tests/fstests "${runs[@]}" || rc=1
echo "fstests: summary in $out/summary.md and $out/summary.json" >&2

# Control: the comparison can fail. The first run's output with one
# test's protected result changed (pass to fail, anything else to pass)
# must fail the report.
first=${runs[0]#*=}
ctl=$out/control
mkdir -p "$ctl"
awk '!done && $1 == "@@@FST" && $3 == "protected" {
	$5 = ($5 == "pass") ? "fail" : "pass"; done = 1 } { print }' \
	"$first" > "$ctl/fstests.out"
if cmp -s "$first" "$ctl/fstests.out"; then
	echo "FAIL fstests/control: no protected result to change in $first"
	rc=1
elif v=$(python3 tests/fstests/report.py "$ctl" tests/fstests \
	 "${runs[0]%%=*}=$ctl/fstests.out" 2>&1); then
	echo "FAIL fstests/control: a changed protected result passed: $v"
	rc=1
elif ! grep -q 'unprotected, .* protected' <<< "$v"; then
	echo "FAIL fstests/control: the report failed, not for the difference: $v"
	rc=1
else
	echo "PASS fstests/control: a changed protected result fails the comparison: $(grep -m1 FAIL <<< "$v")"
fi
exit $rc
