# SPDX-License-Identifier: GPL-2.0
# suite: bench
# expect-kmsg: WARNING: CPU: [0-9]+ PID: [0-9]+ at arch/x86/mm/fault\.c:[0-9]+
# pks: the benchmark (make bench, not make check), each comparison side by
# side in one boot. Guard windows against page-table changes with a TLB
# flush on every CPU; a 64 MiB process_vm_readv() of a protected mapping
# against the same unprotected; ext4 -o dax reads and writes, protected
# against unprotected. The event counts are checked; the times are
# reported, never asserted.
. /tests/lib.sh

load_pks
jq -cn --arg k "$(uname -r)" --arg m "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)" \
	--argjson n "$(nproc)" '{figure: "machine", kernel: $k, cpu_model: $m, vcpus: $n}'
for n in 1000 10000; do
	out=$(pks-bench $n) || fail "pks-bench $n"
	echo "$out"
	expect_eq "PKRS writes per window" "$(echo "$out" | jq .window_pkrs_writes_per_op)" 2
	expect_eq "PKRS writes for redundant opens" "$(echo "$out" | jq .redundant_open_pkrs_writes)" 0
	expect_eq "TLB flushes per PTE round trip" "$(echo "$out" | jq .tlb_flushes_per_op)" "$((2 * $(nproc)))"
done

# process_vm_readv: unprotected nothing is probed; protected, each call
# costs one entry probe, one fault-probe hit, one grant, and two PKRS
# writes (grant, restore) plus two per context switch inside the call.
setup_namespaces
calls=20
pks-pvm-bench /dev/dax0.0 $calls > /tmp/pvm-off.json || fail "unprotected run"
pkstool enable dax0.0 || fail "enable"
pks-pvm-bench /dev/dax0.0 $calls > /tmp/pvm-on.json || fail "protected run"
pkstool disable dax0.0 || fail "disable"
jq -c '{figure: "process_vm_readv 64 MiB", protected: false} + .' /tmp/pvm-off.json
jq -c '{figure: "process_vm_readv 64 MiB", protected: true} + .' /tmp/pvm-on.json
off() { jq ".$1" /tmp/pvm-off.json; }
on() { jq ".$1" /tmp/pvm-on.json; }
for c in entry_probe_hits grants fault_probe_hits pkrs_writes; do
	expect_eq "unprotected $c" "$(off $c)" 0
done
for c in entry_probe_hits grants fault_probe_hits; do
	expect_eq "protected $c" "$(on $c)" $calls
done
w=$(on pkrs_writes) sw=$(on context_switches)
[ "$w" -ge $((2 * calls)) ] && [ "$w" -le $((2 * calls + 2 * sw)) ] ||
	fail "protected PKRS writes $w, outside [$((2 * calls)), $((2 * calls + 2 * sw))]"
echo "ok: protected PKRS writes $w for $calls calls and $sw context switches"
echo "{\"figure\": \"process_vm_readv 64 MiB\", \"throughput_ratio_protected_to_unprotected\": $(jq -n "$(on mb_per_s) / $(off mb_per_s)")}"

# ext4 -o dax file I/O, unprotected then protected, on one file system:
# each read or write is one fsdax call with one grant, and every
# fault-probe hit in the window is a grant (to this process or to the
# journal's block I/O), never a stray.
blk=$(ndctl list -N | jq -r '.[] | select(.mode == "fsdax") | .blockdev')
mkdir -p /mnt
mkfs.ext4 -q -F -b 4096 "/dev/$blk" || fail "mkfs"
mount -t ext4 -o dax,noatime "/dev/$blk" /mnt || fail "mount"
ops=256
pks-fsbench /mnt/bench $ops > /tmp/fs-off.json || fail "unprotected fs run"
pkstool enable "$blk" || fail "enable $blk"
pks-fsbench /mnt/bench $ops > /tmp/fs-on.json || fail "protected fs run"
pkstool disable "$blk" || fail "disable $blk"
umount /mnt
for prot in off on; do
	while read -r line; do
		echo "$line" | jq -c "{figure: \"ext4 -o dax\", protected: $([ $prot = on ] && echo true || echo false)} + ."
		pat=$(echo "$line" | jq -r .pattern)
		v() { echo "$line" | jq ".$1"; }
		if [ $prot = off ]; then
			for c in entry_probe_hits grants fault_probe_hits pkrs_writes; do
				expect_eq "unprotected $pat $c" "$(v $c)" 0
			done
		else
			expect_eq "protected $pat fsdax calls" "$(v entry_probe_hits)" $ops
			expect_eq "protected $pat grants" "$(v grants)" $ops
			expect_eq "protected $pat fault-probe hits are all grants" \
				"$(v fault_probe_hits)" $(( $(v grants) + $(v pmem_block_grants) ))
			[ "$(v pkrs_writes)" -ge $((2 * ops)) ] ||
				fail "protected $pat: $(v pkrs_writes) PKRS writes for $ops calls"
		fi
	done < /tmp/fs-$prot.json
done
i=1
while [ $i -le "$(wc -l < /tmp/fs-on.json)" ]; do
	off=$(sed -n "${i}p" /tmp/fs-off.json) on=$(sed -n "${i}p" /tmp/fs-on.json)
	echo "{\"figure\": \"ext4 -o dax\", \"pattern\": $(echo "$off" | jq .pattern), \"throughput_ratio_protected_to_unprotected\": $(jq -n "$(echo "$on" | jq .mb_per_s) / $(echo "$off" | jq .mb_per_s)")}"
	i=$((i + 1))
done
exit 0
