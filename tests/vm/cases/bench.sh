# SPDX-License-Identifier: GPL-2.0
# suite: bench
# pks: the benchmark (make bench, not make check), each comparison side by
# side in one boot. CPU windows against page-table changes with a TLB
# flush on every CPU; task windows, which may sleep, against CPU windows
# and against the same sleep without a window; context switches between
# two threads on one CPU with and without one holding a task window; a
# 64 MiB process_vm_readv() of a protected mapping
# against the same unprotected; a program's own memcpy+persist through its
# mapping, protected against unprotected; ext4 -o dax reads and writes,
# protected against unprotected; enable and disable against the
# namespace's size. The event counts are checked; the times are reported,
# never asserted. BENCH_FIGURES=NAME+NAME... (make bench passes it through
# PKSTEST_ENV) runs only those of guard, task-window, switch, irq, pvm,
# user, ext4, unrelated and cost.
. /tests/lib.sh

# want FIGURE WHAT: whether to run FIGURE; if so, say so on the console
# too, where make bench follows it while the VM runs.
want() {
	case "+${BENCH_FIGURES:-all}+" in
	*+all+* | *+"$1"+*) ;;
	*) return 1 ;;
	esac
	echo "pks-bench-progress: $1: $2"
	echo "pks-bench-progress: $1: $2" > /dev/ttyS0 2>/dev/null
	return 0
}

load_pks
jq -cn --arg k "$(uname -r)" --arg m "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)" \
	--argjson n "$(nproc)" '{figure: "machine", kernel: $k, cpu_model: $m, vcpus: $n}'
# ITERATIONS:ACCESS_BYTES: 8 bytes at two counts, then the access size
# growing to 2 MiB (fewer iterations, the same bytes' order). A window
# is two PKRS writes whatever its size; the alternative changes a PTE per
# page each way (counted as read back from the page table) and flushes
# the TLB on every CPU each way (counted on each CPU only if, after the
# flush, it can read the buffer exactly when the PTEs say it is present).
want guard "CPU window against PTE change + flush, 8 B to 2 MiB" &&
for run in 1000:8 10000:8 2000:4096 200:65536 10:2097152; do
	n=${run%%:*} bytes=${run#*:}
	out=$(pks-bench "$n" "$bytes") || fail "pks-bench $n $bytes"
	echo "$out"
	v() { echo "$out" | jq ".$1"; }
	pages=$(( (bytes + 4095) / 4096 ))
	expect_eq "$bytes B: PKRS writes per window" "$(v window_pkrs_writes_per_op)" 2
	expect_eq "$bytes B: PKRS writes for redundant opens" "$(v redundant_open_pkrs_writes)" 0
	expect_eq "$bytes B: TLB flushes per PTE round trip" "$(v tlb_flushes_per_op)" "$((2 * $(nproc)))"
	expect_eq "$bytes B: PTE writes per round trip" "$(v pte_updates_per_op)" "$((2 * pages))"
done

# Task windows, on a kernel thread bound to one CPU: a window is two PKRS
# writes (open, close; the driver skips the third, the default it writes
# as the notifier goes), and each switch-out of the thread while a window
# is open two more (the default as it leaves, its own PKRS as it comes
# back). Outside windows the thread holds nothing: its sleeps alone cost
# no PKRS write at all. The plain CPU window, which may not sleep, is
# two writes.
n=1000 us=50
if want task-window "CPU window, task window, ${us} us sleep, task window around the sleep, $n each"; then
	out=$(pks-bench task-window $n $us) || fail "pks-bench task-window"
	echo "$out"
	v() { echo "$out" | jq ".$1"; }
	expect_eq "CPU window: PKRS writes" "$(v guard_pkrs_writes)" $((2 * n))
	expect_eq "task window: PKRS writes (2 per window, 2 per switch-out in one)" \
		"$(v task_pkrs_writes)" $((2 * n + 2 * $(v task_switches)))
	expect_eq "sleep without a window: PKRS writes" "$(v sleep_pkrs_writes)" 0
	sw=$(v sleep_window_switches)
	[ "$sw" -ge 1 ] || fail "no task window switched out while it slept"
	expect_eq "sleeping task window: PKRS writes (2 per window, 2 per switch-out in one)" \
		"$(v sleep_window_pkrs_writes)" $((2 * n + 2 * sw))
fi

# Context switches: two kernel threads bound to one CPU hand a token back
# and forth. Holding no rights, neither has a preempt notifier: no PKRS
# write and no skipped write at all. With the first holding a task window
# throughout, each of its switch-outs is exactly two writes (the default
# as it leaves, its PKRS as it comes back): one per switch on the CPU.
n=1000
if want switch "context switches, $n round trips on one CPU, no rights held, then one task window held"; then
	out=$(pks-bench switch $n) || fail "pks-bench switch"
	echo "$out"
	v() { echo "$out" | jq ".$1"; }
	for run in plain granted; do
		[ "$(v $run.holder_switches)" -ge $n ] ||
			fail "$run: the first thread switched out $(v $run.holder_switches) times in $n round trips"
	done
	expect_eq "no rights held: PKRS writes" "$(v plain.pkrs_writes)" 0
	expect_eq "no rights held: PKRS writes skipped" "$(v plain.pkrs_skips)" 0
	expect_eq "task window held: PKRS writes (2 per switch-out of its holder)" \
		"$(v granted.pkrs_writes)" $((2 * $(v granted.holder_switches)))
fi

# Interrupts: a kernel thread bound to one CPU queues an irq_work there
# and spins until it ran, round after round, holding no rights, then
# holding a task window around the round. With nothing held, an
# interrupt boundary writes PKRS zero times. With a window held, each
# handler entered from the task costs two writes (the default in, the
# window's rights out) and a handler nested in another none, so the
# writes are at most two per handler counted on the CPU, and at least
# two per irq_work. In either case the irq_work itself must find the
# default in the register.
n=1000
if want irq "interrupts on one CPU, $n with no rights held, $n with a task window held"; then
	out=$(pks-bench irq $n) || fail "pks-bench irq"
	echo "$out"
	v() { echo "$out" | jq ".$1"; }
	expect_eq "no rights held: PKRS writes at interrupt boundaries" "$(v plain.pkrs_writes)" 0
	for run in plain held; do
		expect_eq "$run: irq_works that found PKRS other than the default" "$(v $run.leaked)" 0
		[ "$(v $run.handlers)" -ge $n ] ||
			fail "$run: $(v $run.handlers) handlers counted for $n irq_works"
	done
	w=$(v held.pkrs_writes) h=$(v held.handlers)
	[ "$w" -ge $((2 * n)) ] && [ "$w" -le $((2 * h)) ] ||
		fail "task window held: $w PKRS writes, expected 2 per irq_work ($((2 * n))) to 2 per handler ($((2 * h)))"
	echo "ok: task window held: $w PKRS writes for $h handlers ($(v held.pkrs_writes_per_handler) each)"
fi

# process_vm_readv: unprotected nothing is probed; protected, each call
# costs one entry probe, one fault-probe hit, one grant, and two PKRS
# writes (grant, restore) plus two per context switch inside the call.
case "+${BENCH_FIGURES:-all}+" in
*+all+* | *+pvm+* | *+user+* | *+ext4+*) setup_namespaces ;;
esac
calls=20
want pvm "process_vm_readv 64 MiB x $calls, unprotected then protected" && {
pks-pvm-bench /dev/dax0.0 $calls > /tmp/pvm-off.json || fail "unprotected run"
pkstool enable dax0.0 || fail "enable"
pks-pvm-bench /dev/dax0.0 $calls > /tmp/pvm-on.json || fail "protected run"
pkstool disable dax0.0 || fail "disable"
jq -c '{figure: "process_vm_readv 64 MiB", protected: false} + .' /tmp/pvm-off.json
jq -c '{figure: "process_vm_readv 64 MiB", protected: true} + .' /tmp/pvm-on.json
off() { jq ".$1" /tmp/pvm-off.json; }
on() { jq ".$1" /tmp/pvm-on.json; }
for c in held_page_grants irq_grants fault_probe_hits pkrs_writes; do
	expect_eq "unprotected $c" "$(off $c)" 0
done
# Each call faults once and is granted (held-page: GUP pins the pages);
# each interrupt during the copy ends the grant, and the next access
# faults and is granted again. Every fault-probe hit is a grant, a
# refill or a stale entry: never a stray.
g=$(on held_page_grants)
[ "$g" -ge $calls ] || fail "protected: $g held-page grants for $calls calls"
expect_eq "protected fault-probe hits are all grants" "$(on fault_probe_hits)" \
	$(( g + $(on irq_grants) + $(on refills) + $(on spurious) ))
# The held-page rule decides before any unwinding: exact over the run.
expect_eq "protected frames unwound" "$(on frames_unwound)" 0
expect_eq "protected symbol lookups" "$(on symbol_lookups)" 0
w=$(on pkrs_writes) sw=$(on context_switches)
[ "$w" -ge $((2 * calls)) ] ||
	fail "protected PKRS writes $w, fewer than 2 for each of $calls calls"
echo "ok: $g grants ($(jq -n "$g / $calls") per call), $w PKRS writes, $(on boundary_writes) at interrupt boundaries"
echo "{\"figure\": \"process_vm_readv 64 MiB\", \"throughput_ratio_protected_to_unprotected\": $(jq -n "$(on mb_per_s) / $(off mb_per_s)")}"
}

# A program's own use of the memory, through its mapping: libpmem2
# memcpy+persist into 64 MiB of dax0.0 and reads back, unprotected then
# protected. User page tables carry no supervisor key, so protection must
# cost nothing here: the driver writes PKRS zero times and takes no fault.
passes=4
# The runs go unprotected, protected, protected, unprotected (ABBA): an
# earlier tree ran unprotected then protected and measured protected
# writes at 0.65-0.71 of unprotected although no kernel code runs here;
# the order shows whether that is the position of a run (the NVDIMM's
# backing file is the host's page cache, written back while later runs
# go on) rather than protection. Each run is reported; the figure's
# ratio is of the two sides' sums.
want user "libpmem2 memcpy+persist 64 MiB x $passes, in the order unprotected, protected, protected, unprotected" && {
run=0
for prot in off on on off; do
	run=$((run + 1))
	[ $prot = on ] && { pkstool enable dax0.0 >/dev/null || fail "enable"; }
	pks-userbench /dev/dax0.0 $passes > /tmp/user-$run.json || fail "user run $run ($prot)"
	[ $prot = on ] && { pkstool disable dax0.0 >/dev/null || fail "disable"; }
	jq -c "{figure: \"user memcpy+persist 64 MiB\", protected: $([ $prot = on ] && echo true || echo false), run: $run} + ." /tmp/user-$run.json
	for c in pkrs_writes fault_probe_hits; do
		expect_eq "user run $run ($prot) $c" "$(jq .$c /tmp/user-$run.json)" 0
	done
	eval "w_$run=\$(jq .write_mb_per_s /tmp/user-$run.json)"
done
# shellcheck disable=SC2154
echo "{\"figure\": \"user memcpy+persist 64 MiB\", \"write_mb_per_s_by_run\": [$w_1, $w_2, $w_3, $w_4], \"throughput_ratio_protected_to_unprotected\": $(jq -n "($w_2 + $w_3) / ($w_1 + $w_4)"), \"ratio_second_half_to_first_half\": $(jq -n "($w_3 + $w_4) / ($w_1 + $w_2)")}"
}

# ext4 -o dax file I/O, unprotected then protected, on one file system:
# each read or write is one fsdax call with one grant, and every
# fault-probe hit in the window is a grant (to this process or to the
# journal's block I/O), never a stray. The inode tables and journal are
# initialised by mkfs, not by ext4lazyinit after mount: that thread would
# write through the pmem driver in the background while the figure runs,
# and its block I/O already in flight when enable arms the grants is not
# granted (seen on 6.12: a refused stray, then an oops).
want ext4 "ext4 -o dax 4 KiB and 1 MiB I/O, unprotected then protected" && {
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
mkdir -p /mnt
mkfs.ext4 -q -F -b 4096 -E lazy_itable_init=0,lazy_journal_init=0 "/dev/$blk" ||
	fail "mkfs"
mount -t ext4 -o dax,noatime "/dev/$blk" /mnt || fail "mount"
ops=256
pks-fsbench /mnt/bench $ops > /tmp/fs-off.json || fail "unprotected fs run"
# Upstream V10's price on this test bed: unprotected, with two writes of
# PKRS's own value around each of the owner's copies (pks_test.ko), since
# under TCG each write flushes the emulated TLB whatever it changes.
pks-fsbench /mnt/bench $ops v10 > /tmp/fs-v10.json || fail "V10-priced fs run"
pkstool enable "$blk" || fail "enable $blk"
pks-fsbench /mnt/bench $ops > /tmp/fs-on.json || fail "protected fs run"
pkstool disable "$blk" || fail "disable $blk"
umount /mnt
while read -r line; do
	echo "$line" | jq -c '{figure: "ext4 -o dax", protected: false, v10_price: true} + .'
	pat=$(echo "$line" | jq -r .pattern) w=$(echo "$line" | jq .v10_writes)
	for c in fault_probe_hits pkrs_writes bracket_opens; do
		expect_eq "V10-priced $pat $c" "$(echo "$line" | jq ".$c")" 0
	done
	# Two per copy, each call one copy at least (more where it crosses
	# an extent).
	[ $((w % 2)) = 0 ] && [ "$w" -ge $((2 * ops)) ] ||
		fail "V10-priced $pat: $w emulated writes for $ops calls"
done < /tmp/fs-v10.json
for prot in off on; do
	while read -r line; do
		echo "$line" | jq -c "{figure: \"ext4 -o dax\", protected: $([ $prot = on ] && echo true || echo false)} + ."
		pat=$(echo "$line" | jq -r .pattern)
		v() { echo "$line" | jq ".$1"; }
		if [ $prot = off ]; then
			for c in dax_layer_grants pmem_driver_grants held_page_grants fault_probe_hits pkrs_writes bracket_opens; do
				expect_eq "unprotected $pat $c" "$(v $c)" 0
			done
		else
			# Exact over the whole run: the owner's copies open
			# the key in their brackets (ownercopy.c), so not one
			# call faults, is judged, unwinds or looks a symbol
			# up; each opening costs two PKRS writes (open,
			# close), interrupts inside it two more each.
			for c in fault_probe_hits dax_layer_grants pmem_driver_grants \
				 held_page_grants irq_grants frames_unwound symbol_lookups; do
				expect_eq "protected $pat $c" "$(v $c)" 0
			done
			[ "$(v bracket_opens)" -ge $ops ] ||
				fail "protected $pat: $(v bracket_opens) bracket openings for $ops calls"
			# Two writes per opening (open, close); a switch-out
			# inside one may add one at the switch and one at
			# the close. The interrupt boundaries count apart.
			w=$(v pkrs_writes) o=$(( 2 * $(v bracket_opens) ))
			[ "$w" -ge $o ] && [ "$w" -le $(( o + 2 * $(v context_switches) )) ] ||
				fail "protected $pat: $w PKRS writes for $(v bracket_opens) openings and $(v context_switches) switches"
			echo "ok: protected $pat: $ops calls, 0 faults, $(v bracket_opens) bracket openings, $w PKRS writes (and $(v boundary_writes) at interrupt boundaries)"
		fi
	done < /tmp/fs-$prot.json
done
i=1
while [ $i -le "$(wc -l < /tmp/fs-on.json)" ]; do
	off=$(sed -n "${i}p" /tmp/fs-off.json) on=$(sed -n "${i}p" /tmp/fs-on.json)
	v10=$(sed -n "${i}p" /tmp/fs-v10.json)
	echo "{\"figure\": \"ext4 -o dax\", \"pattern\": $(echo "$off" | jq .pattern), \"throughput_ratio_protected_to_unprotected\": $(jq -n "$(echo "$on" | jq .mb_per_s) / $(echo "$off" | jq .mb_per_s)"), \"throughput_ratio_protected_to_v10_priced\": $(jq -n "$(echo "$on" | jq .mb_per_s) / $(echo "$v10" | jq .mb_per_s)"), \"v10_priced_mb_per_s\": $(echo "$v10" | jq .mb_per_s)}"
	i=$((i + 1))
done
}

# Work that never touches protected memory, with none protected, then
# with both namespaces protected: 100,000 pipe reads, O_DIRECT reads of a
# brd disk, io_uring reads of a tmpfs file. Asserted: the driver does
# nothing for it (no fault-probe hit, grant, task holding one, module
# reference or PKRS write at an interrupt boundary); times are reported.
want unrelated "pipe reads, O_DIRECT brd reads, io_uring tmpfs reads, with and without protection" && {
setup_namespaces
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
dd if=/dev/urandom of=/tmp/uring.dat bs=1M count=1 2>/dev/null
pkstool disable --all >/dev/null
for prot in false true; do
	[ $prot = true ] && { pkstool enable dax0.0 "$blk" >/dev/null || fail "enable"; }
	for w in "pipe 100000" "direct 20000 /dev/ram0" "uring 20000 /tmp/uring.dat"; do
		# shellcheck disable=SC2086
		out=$(pks-unrelated $w) || fail "pks-unrelated $w"
		echo "$out" | jq -c "{figure: \"unrelated work\", protected: $prot} + ."
		[ $prot = true ] || continue
		for c in fault_probe_hits held_page_grants dax_layer_grants \
			 pmem_driver_grants irq_grants tasks_granted \
			 module_refs_added boundary_writes pkrs_writes \
			 bracket_opens; do
			expect_eq "protected, ${w%% *}: $c" "$(echo "$out" | jq .$c)" 0
		done
	done
done
pkstool disable --all >/dev/null
}

# What enable and disable cost against the namespace's size (lib.sh's
# cost_figure), on the NVDIMM; bench-cxl.sh measures the same on CXL.
want cost "enable and disable against namespace size, 64 MiB to 1008 MiB" &&
	cost_figure region0 ""
exit 0
