#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh SERIES CPU OUTDIR CASE...: boot the newest Debian SERIES kernel
# (6.1, 6.12 or 7.3) under TCG with CPU "pks" (-cpu max) or "nopks"
# (-cpu max,-pks) and an emulated NVDIMM (or the machine shape the cases'
# "# vm-shape:" header names, below), run the CASEs (tests/vm/cases),
# and judge each: its exit code, plus every kernel report in its window of
# the kernel log against the case's "# expect-kmsg:" and "# require-kmsg:"
# lines. The window must have its begin and end marker, else the case
# fails. No page-fault WARN is allowed: pks holds the stock first-fault
# WARN (tests/vm/first-fault-warn) as reported while loaded; only a case
# that loads pks with silence_pk_warn=0 may expect it, with the literal
# line "# expect-kmsg: FIRST-FAULT-WARN" (run-vm.sh puts in this
# series' pattern), and a boot still prints it at most once. Prints one
# "PASS|FAIL|SKIP <name>" line per case, plus one for the kernel log
# outside the cases, and keeps the console log in OUTDIR.
# PKSTEST_ENV="NAME=VALUE,..." sets variables for the cases (their sizes,
# as make stress does).
set -uo pipefail

series=$1 cpu=$2 out=$3
shift 3
cases=("$@")
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/vm
tag=vm-$series-$cpu
mkdir -p "$out"
out=$(cd "$out" && pwd)

die() {
	echo "FAIL $tag/setup: $*"
	exit 1
}

# VM_PREPARED=DIR: the kernel and initramfs prepare.sh made in DIR for
# this series; without it, prepare them in OUTDIR.
prepared=${VM_PREPARED:-$out}
if [ -z "${VM_PREPARED:-}" ]; then
	why=$("$here/prepare.sh" "$series" "$out") || die "$why"
fi
kroot=$(cat "$prepared/kroot" 2>/dev/null) && [ -f "$prepared/initrd.gz" ] ||
	die "$prepared holds no prepared $series kernel (tests/vm/prepare.sh)"
kver=$(basename "$kroot")
case $kver in
"$series".*) ;;
*) die "$prepared was prepared for kernel $kver, not for $series" ;;
esac
initrd=$prepared/initrd.gz

cpuopt=max
[ "$cpu" = nopks ] && cpuopt=max,-pks
list=$(IFS=,; echo "${cases[*]}")
# "# vm-smp: SPEC", "# vm-qemu: ARGS" and "# vm-append: ARGS" in a case
# (one with its own boot) shape its VM: the -smp value, QEMU arguments
# added (a CPU plugged in with other features), and words added to the
# kernel command line (-append: panic_on_warn=1). "# vm-shape: SHAPE" picks the machine (below);
# the cases of one boot must agree on it. "# vm-backing: keep" keeps the
# CXL device's backing files across the boots of one OUTDIR.
smp=${VM_SMP:-2} extra=() shape= keep= kargs=
for c in "${cases[@]}"; do
	v=$(sed -n 's/^# vm-append: //p' "$here/cases/$c.sh")
	[ -n "$v" ] && kargs="$kargs $v"
	v=$(sed -n 's/^# vm-smp: //p' "$here/cases/$c.sh")
	[ -n "$v" ] && smp=$v
	v=$(sed -n 's/^# vm-qemu: //p' "$here/cases/$c.sh")
	[ -n "$v" ] && read -ra words <<< "$v" && extra+=("${words[@]}")
	v=$(sed -n 's/^# vm-shape: //p' "$here/cases/$c.sh")
	v=${v:-nfit}
	[ -n "$shape" ] && [ "$shape" != "$v" ] &&
		die "cases of one boot want machine shapes $shape and $v"
	shape=$v
	grep -q '^# vm-backing: keep' "$here/cases/$c.sh" && keep=1
done
shape=${shape:-nfit}
[ "$shape" = nfit ] || tag=$tag-$shape
echo "run-vm: $tag: Debian kernel $kver, cases: ${cases[*]}" >&2

# Machine shapes:
#   nfit      the PC machine with an emulated NVDIMM (ACPI NFIT).
#   cxl       a q35 machine with one CXL type-3 device whose memory is
#             persistent: one pxb-cxl host bridge with two root ports
#             (with one, 6.1 takes the bridge for a passthrough decoder
#             and QEMU 7.2 does not: every write is lost), the device on
#             the first, an LSA file, and a fixed memory window of 4 GiB.
#             The CPU hides the hypervisor bit (6.12's region commit
#             fails "to synchronize CPU cache state" otherwise; PKS
#             stays), and the kernel gets pcie_ports=compat (6.12's
#             cxl_pci does not probe without, QEMU 7.2 having no event-log
#             interrupts). See ../shared/TESTBED.md "CXL persistent
#             memory".
#   cxl+nfit  both devices in one q35 machine.
append= mem=2G,slots=2,maxmem=8G
case $shape in
nfit)
	machine=(-machine pc,nvdimm=on) ;;
cxl|cxl+nfit)
	machine=(-machine q35,cxl=on)
	[ "$shape" = cxl+nfit ] && machine=(-machine q35,cxl=on,nvdimm=on)
	cpuopt=$cpuopt,hypervisor=off
	mem=2G,slots=4,maxmem=8G
	append=" pcie_ports=compat" ;;
*)
	die "unknown machine shape '$shape' (nfit, cxl or cxl+nfit)" ;;
esac

# The NVDIMM's backing file lives as long as OUTDIR: data persists
# across boots of one run.
case $shape in
*nfit)
	[ -f "$out/nvdimm.img" ] || truncate -s 2G "$out/nvdimm.img"
	machine+=(-object memory-backend-file,id=mem1,share=on,mem-path="$out/nvdimm.img",size=2G
		  -device nvdimm,id=nv1,memdev=mem1,label-size=128K) ;;
esac
# The CXL memdev's label storage area: 1 MiB holds 4,000 labels, and
# ndctl zero-labels and init-labels move all of it through mailbox
# commands, which QEMU emulates one by one: 256 MiB took 80 s a call.
# The memdev has a serial number, as real ones do: 7.3's cxl_pmem refuses
# a persistent-memory region on a device without one ("invalid or
# missing serial number"), and QEMU gives it none by default.
case $shape in
cxl*)
	machine+=(-object memory-backend-file,id=cxl-mem0,share=on,mem-path="$out/cxl-pmem0.img",size=2G
		  -object memory-backend-file,id=cxl-lsa0,share=on,mem-path="$out/cxl-lsa0.img",size=1M
		  -device pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1
		  -device cxl-rp,port=0,bus=cxl.1,id=root_port13,chassis=0,slot=2
		  -device cxl-rp,port=1,bus=cxl.1,id=root_port14,chassis=0,slot=3
		  -device cxl-type3,bus=root_port13,memdev=cxl-mem0,lsa=cxl-lsa0,id=cxl-pmem0,sn=0x504b530000000001
		  -machine cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=4G) ;;
esac

# cxl_files: the CXL device's backing files, fresh for each boot unless
# a case keeps them (QEMU 7.2's decoders do not survive a power-off
# anyway: a kept device needs its region created again).
cxl_files() {
	case $shape in
	cxl*) ;;
	*) return 0 ;;
	esac
	if [ -z "$keep" ]; then
		rm -f "$out/cxl-pmem0.img" "$out/cxl-lsa0.img"
	fi
	[ -f "$out/cxl-pmem0.img" ] || truncate -s 2G "$out/cxl-pmem0.img"
	[ -f "$out/cxl-lsa0.img" ] || truncate -s 1M "$out/cxl-lsa0.img"
}

# VM_DISK=FILE: a raw disk image the cases see as /dev/vda (virtio),
# its writes kept in a throw-away snapshot: the fstests userspace
# (tests/fstests/run.sh).
disk=()
[ -n "${VM_DISK:-}" ] &&
	disk=(-drive "file=$VM_DISK,if=virtio,format=raw,snapshot=on")

# One TCG thread runs the vCPUs in turn (thread=single). With a thread
# per vCPU, QEMU 7.2 at times went on executing a stale translation of
# code the guest kernel had just patched: an int3 left in __schedule by a
# static-key update (the preempt notifiers' key, flipped on every load of
# pks.ko), seen as an int3 oops on 6.12 and, on 6.1, as a CPU spinning on
# that int3 with interrupts off while another waited on it. reload-loop
# hit it within 40 rounds; with one thread 300 rounds passed. VM_TCG_THREAD
# =multi brings the old behaviour back.
boot() {
	rm -f "$out/console.log" "$out/results.log"
	cxl_files
	timeout "${VM_TIMEOUT:-1200}" qemu-system-x86_64 -accel "tcg,thread=${VM_TCG_THREAD:-single}" -cpu "$cpuopt" \
		"${machine[@]}" -m "$mem" -smp "$smp" "${extra[@]}" "${disk[@]}" \
		-kernel "$kroot/boot/vmlinuz-$kver" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1$append$kargs pkstest.shape=$shape pkstest.cases=$list${PKSTEST_ENV:+ pkstest.env=$PKSTEST_ENV}" \
		-display none -monitor none -no-reboot \
		-serial file:"$out/console.log" -serial file:"$out/results.log" \
		> "$out/qemu.log" 2>&1
	[ $? -eq 124 ] && echo "run-vm: $tag: VM timed out" >&2
}

boot
# A stock kernel can die under TCG before /init runs (seen once on 6.12,
# before thread=single: an int3 while it patched a static key the other
# vCPU was executing).
# No pkstool code has run then, so boot once more, keeping the log. Any
# failure after /init started is judged as it is, never retried.
if ! grep -q '^@@@ BOOT' "$out/results.log"; then
	mv "$out/console.log" "$out/console-died-before-init.log"
	echo "run-vm: $tag: the kernel died before /init (see $out/console-died-before-init.log); booting again" >&2
	boot
fi

# The serial line ends lines with CRLF.
tr -d '\r' < "$out/results.log" > "$out/results.txt"
results=$out/results.txt
kmsg=$out/kmsg.log
sed -n '/^@@@ KMSG-ALL$/,/^@@@ DONE$/p' "$results" > "$kmsg"

# Kernel reports that fail a run unless the case expects them.
bad='(BUG|WARNING|KASAN|UBSAN|kernel BUG)[: ]|Oops|general protection fault|Kernel panic|[Uu]nable to handle|scheduling while atomic|sleeping function called|blocked for more than|rcu.*(stall|detected)|list_(add|del) corruption|refcount_t: |pks: unloading with .* still counted'

# The stock first-fault WARN (tests/vm/first-fault-warn), this exact line
# of this kernel series. pks holds it as reported, so it is a failure
# like any other report, unless the case expects it by name: an
# "# expect-kmsg: FIRST-FAULT-WARN" line (its control, which loads pks
# with silence_pk_warn=0). No other expect-kmsg line may allow a
# page-fault WARN.
first_warn=$(awk -v s="$series" '$1 == s { sub(/^[^ ]+ /, ""); print; exit }' \
	"$here/first-fault-warn")

# case_window CASE: its part of the kernel log
case_window() {
	sed -n "/;PKSTEST-BEGIN $1\$/,/;PKSTEST-END $1\$/p" "$kmsg"
}

# window_markers CASE: "" when the kernel log holds exactly one begin and
# one end marker of CASE, in that order; else what is wrong. Without both
# the window would be empty or run to the end of the log (a missing end,
# a log reader that died): never a clean window.
window_markers() {
	local b e
	b=$(grep -n ";PKSTEST-BEGIN $1\$" "$kmsg" | cut -d: -f1)
	e=$(grep -n ";PKSTEST-END $1\$" "$kmsg" | cut -d: -f1)
	if [ "$(echo "$b" | grep -c .)" != 1 ] || [ "$(echo "$e" | grep -c .)" != 1 ]; then
		echo "$(echo "$b" | grep -c .) begin and $(echo "$e" | grep -c .) end markers"
	elif [ "$b" -ge "$e" ]; then
		echo "its end marker comes before its begin marker"
	fi
}

# kmsg_verdict CASEFILE WINDOW: "" when the case's kernel log WINDOW
# holds no report ($bad) its "# expect-kmsg:" lines do not allow and every
# line its "# require-kmsg:" lines ask for; else what is wrong.
kmsg_verdict() {
	local file=$1 win=$2 line pat ok
	while IFS= read -r line; do
		ok=
		while IFS= read -r pat; do
			if [ "$pat" = FIRST-FAULT-WARN ]; then
				[ -n "$first_warn" ] &&
					grep -Eq -- "^($first_warn)" <<< "${line#*;}" &&
					ok=1
				continue
			fi
			[ -n "$pat" ] && grep -Eq -- "$pat" <<< "$line" && ok=1
		done < <(sed -n 's/^# expect-kmsg: //p' "$file")
		if [ -z "$ok" ]; then
			echo "unexpected kernel report: ${line#*;}"
			return
		fi
	done < <(grep -E -- "$bad" <<< "$win")
	while IFS= read -r pat; do
		if ! grep -Eq -- "$pat" <<< "$win"; then
			echo "kernel log lacks /$pat/"
			return
		fi
	done < <(sed -n 's/^# require-kmsg: //p' "$file")
}

judge() {
	local c=$1 file=$here/cases/$1.sh rc win line pat why
	rc=$(sed -n "s/^@@@ RESULT $c \([0-9]*\)$/\1/p" "$results")
	win=$(case_window "$c")
	sed -n "/^@@@ OUTPUT $c\$/,/^@@@ RESULT $c /p" "$results" \
		> "$out/$c.out"
	printf '%s\n' "$win" > "$out/$c.kmsg"
	if [ -z "$rc" ]; then
		echo "FAIL $tag/$c: no result (VM crashed or timed out; see $out/console.log)"
		return
	fi
	if grep -q '^# expect-kmsg: .*mm/fault' "$file"; then
		echo "FAIL $tag/$c: an expect-kmsg line allows a page-fault WARN: only the stock first-fault WARN may be expected, as '# expect-kmsg: FIRST-FAULT-WARN'"
		return
	fi
	why=$(window_markers "$c")
	if [ -n "$why" ]; then
		echo "FAIL $tag/$c: no kernel log window: $why (the VM's log reader died, or its log was cut; see $out/kmsg.log)"
		return
	fi
	# What the kernel log says against the case's headers: a report it
	# does not expect, or a line it requires and lacks. A case that
	# failed on its own is named by its own FAIL line first (it may have
	# stopped before what the log was to show), with this after it.
	why=$(kmsg_verdict "$file" "$win")
	case $rc in
	0 | 77) ;;
	*)
		echo "FAIL $tag/$c: exit $rc: $(grep -m1 '^FAIL' "$out/$c.out")${why:+; and $why}"
		return ;;
	esac
	if [ -n "$why" ]; then
		echo "FAIL $tag/$c: $why"
		return
	fi
	# JSON the case printed for the host (emit_json): it must match its
	# schema in tests/schema.
	if [ "$rc" = 0 ] && grep -q '^@@@JSON ' "$out/$c.out" &&
	   ! "$top/tests/schema/validate.py" vm-out "$out/$c.out" \
		> "$out/$c.schema" 2>&1; then
		echo "FAIL $tag/$c: JSON against tests/schema: $(grep -m1 -A1 '^  ' "$out/$c.schema" | head -1)"
		return
	fi
	# "# host-check: PROGRAM": PROGRAM judges the case's output on the
	# host too, with tools the VM does not have.
	pat=$(sed -n 's/^# host-check: //p' "$file")
	if [ "$rc" = 0 ] && [ -n "$pat" ] && ! line=$("$top/$pat" "$out/$c.out" 2>&1); then
		echo "FAIL $tag/$c: $pat: $line"
		return
	fi
	case $rc in
	0) echo "PASS $tag/$c" ;;
	77) echo "SKIP $tag/$c: $(grep -m1 '^SKIP' "$out/$c.out")" ;;
	*) echo "FAIL $tag/$c: exit $rc: $(grep -m1 '^FAIL' "$out/$c.out")" ;;
	esac
}

for c in "${cases[@]}"; do
	judge "$c"
done

# Reports outside every case window fail the boot itself, and so does
# the first-fault WARN printed twice (WARN_ON_ONCE cannot: something else
# printed that line).
outside=$(awk '/;PKSTEST-BEGIN /{inside=1} !inside{print} /;PKSTEST-END /{inside=0}' "$kmsg" |
	  grep -E -- "$bad")
warns=0
[ -n "$first_warn" ] &&
	warns=$(sed 's/^[^;]*;//' "$kmsg" | grep -cE -- "^($first_warn)")
if ! grep -q '^@@@ DONE' "$results"; then
	echo "FAIL $tag/boot: the VM did not finish (see $out/console.log)"
elif [ -n "$outside" ]; then
	echo "FAIL $tag/boot: kernel report outside the cases: ${outside#*;}"
elif [ "$warns" -gt 1 ]; then
	echo "FAIL $tag/boot: the first-fault WARN $warns times in one boot"
else
	echo "PASS $tag/boot"
fi
