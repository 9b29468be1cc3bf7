# SPDX-License-Identifier: GPL-2.0
# suite: bench
# pks: the benchmark (make bench, not make check): guard windows against
# page-table changes with a TLB flush on every CPU, side by side. The event
# counts are checked; the times are reported, never asserted.
. /tests/lib.sh

load_pks
for n in 1000 10000; do
	out=$(pks-bench $n) || fail "pks-bench $n"
	echo "$out"
	expect_eq "PKRS writes per window" "$(echo "$out" | jq .window_pkrs_writes_per_op)" 2
	expect_eq "PKRS writes for redundant opens" "$(echo "$out" | jq .redundant_open_pkrs_writes)" 0
	expect_eq "TLB flushes per PTE round trip" "$(echo "$out" | jq .tlb_flushes_per_op)" "$((2 * $(nproc)))"
done
exit 0
