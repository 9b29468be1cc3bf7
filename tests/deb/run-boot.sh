#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-boot.sh SERIES OUTDIR DEBDIR CASE...: boot the Debian 12 image
# (tests/deb/mkrootfs.sh) with the newest Debian SERIES kernel under QEMU
# TCG, -cpu max (PKS; -cpu max,-pks for a case with "# cpu: nopks") and
# the emulated NVDIMM of tests/vm/run-vm.sh,
# once per CASE (tests/deb/cases/CASE.sh), on one disk and one NVDIMM
# backing file in OUTDIR: what a case leaves, the next boot finds. Each
# boot's payload disk holds the case, tests/vm/lib.sh, the packages in
# DEBDIR/1 (and the newer build in DEBDIR/2), pks.ko and pks_test.ko
# built on the host against the kernel's headers (the image has none, so
# DKMS only registers the source), and pks-ioctl. Prints "PASS|FAIL
# deb-SERIES/CASE" per case: its exit code, and no kernel report on the
# console, the stock first-fault WARN (tests/vm/first-fault-warn) included:
# pks holds that one as reported while loaded (driver/warnonce.c).
set -uo pipefail

series=$1 out=$2 debdir=$3
shift 3
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/deb
vm=$top/tests/vm
build=${BUILD:-$top/build}
cache=${CACHE:-$top/.cache}
tag=deb-$series
mkdir -p "$out"
out=$(cd "$out" && pwd)

die() {
	echo "FAIL $tag/setup: $1"
	exit 1
}

kroot=$("$vm/fetch-kernel.sh" "$series" "$cache/kernels") ||
	die "cannot fetch the $series kernel"
kver=$(basename "$kroot")
mod=$("$vm/build-module.sh" "$kroot" "$build" "$out/module-build.log") ||
	die "module build failed for $kver: see $out/module-build.log"
make -s -C "$top" "$build/vm-bin/pks-ioctl" > "$out/bin-build.log" 2>&1 ||
	die "pks-ioctl build failed: see $out/bin-build.log"
img=$("$here/image.sh" "$debdir/1" 2> "$out/mkrootfs.log") ||
	die "image build failed: see $out/mkrootfs.log"
[ -f "$out/root.img" ] || cp --sparse=always "$img/root.img" "$out/root.img"
[ -f "$out/nvdimm.img" ] || truncate -s 2G "$out/nvdimm.img"

first_warn=$(awk -v s="$series" '$1 == s { sub(/^[^ ]+ /, ""); print; exit }' \
	"$vm/first-fault-warn")
bad='(BUG|WARNING|KASAN|UBSAN|kernel BUG)[: ]|Oops|general protection fault|Kernel panic|[Uu]nable to handle|scheduling while atomic|sleeping function called|blocked for more than|rcu.*(stall|detected)|list_(add|del) corruption|refcount_t: '

for c in "$@"; do
	stage=$out/payload-$c
	rm -rf "$stage" && mkdir -p "$stage"/{cases,modules,bin,deb}
	cp "$here/cases/$c.sh" "$here/cases/lib-deb.sh" "$stage/cases/"
	cp "$vm/lib.sh" "$vm/first-fault-warn" "$stage/"
	cp "$mod/pks.ko" "$mod/pks_test.ko" "$stage/modules/"
	cp "$build/vm-bin/pks-ioctl" "$stage/bin/"
	cp -r "$debdir/1" "$debdir/2" "$stage/deb/"
	rm -f "$out/payload.img"
	mkfs.ext4 -q -d "$stage" "$out/payload.img" 256M ||
		die "payload image failed"
	rm -f "$out/console-$c.log" "$out/results-$c.log"
	# A case with "# cpu: nopks" boots a CPU without PKS.
	cpu=max
	grep -q '^# cpu: nopks$' "$here/cases/$c.sh" && cpu=max,-pks
	timeout "${VM_TIMEOUT:-900}" qemu-system-x86_64 \
		-accel "tcg,thread=${VM_TCG_THREAD:-single}" -cpu "$cpu" \
		-machine pc,nvdimm=on -m 2G,slots=2,maxmem=8G -smp 2 \
		-object memory-backend-file,id=mem1,share=on,mem-path="$out/nvdimm.img",size=2G \
		-device nvdimm,id=nv1,memdev=mem1,label-size=128K \
		-drive file="$out/root.img",if=virtio,format=raw \
		-drive file="$out/payload.img",if=virtio,format=raw,readonly=on \
		-kernel "$kroot/boot/vmlinuz-$kver" -initrd "$img/initrd.img-$kver" \
		-append "root=/dev/vda rw console=ttyS0 panic=-1 systemd.wants=pkstest.service pkstest.case=$c" \
		-display none -monitor none -no-reboot \
		-serial file:"$out/console-$c.log" -serial file:"$out/results-$c.log" \
		> "$out/qemu-$c.log" 2>&1
	tr -d '\r' < "$out/results-$c.log" > "$out/$c.out"
	rc=$(sed -n "s/^@@@ RESULT $c \([0-9]*\)$/\1/p" "$out/$c.out")
	reports=$(tr -d '\r' < "$out/console-$c.log" | grep -E -- "$bad")
	nwarn=0
	[ -n "$first_warn" ] &&
		nwarn=$(echo "$reports" | grep -cE -- "$first_warn")
	if [ -z "$rc" ]; then
		echo "FAIL $tag/$c: no result (VM crashed or timed out; see $out/console-$c.log)"
	elif [ "$nwarn" -gt 0 ]; then
		echo "FAIL $tag/$c: the stock first-fault WARN, which pks holds as reported: $(echo "$reports" | grep -m1 -E -- "$first_warn")"
	elif [ -n "$reports" ]; then
		echo "FAIL $tag/$c: kernel report: $(echo "$reports" | head -n 1)"
	elif [ "$rc" = 0 ]; then
		echo "PASS $tag/$c"
	else
		echo "FAIL $tag/$c: exit $rc: $(grep -m1 '^FAIL' "$out/$c.out")"
	fi
done
