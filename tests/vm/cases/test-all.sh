# SPDX-License-Identifier: GPL-2.0
# pks: with a devdax namespace, every built-in case passes: 'all', then
# 'all-keys', in text and JSON; the PKRS write counters move.
# require-kmsg: pks_test: test single-key: pass
# require-kmsg: pks_test: test all-keys: pass
. /tests/lib.sh

pks_ready
# Nothing is written into a namespace that was not named: the cases that
# need one are skipped, saying so, and the run tested nothing else (77).
json=$(pkstool test --json stray-write protect boundary)
expect_eq "cases needing a namespace, none named: exit" "$?" 77
expect_eq "skipped without a namespace" \
	"$(echo "$json" | jq '[.[] | select(.result == "skip")] | length')" 3
echo "$json" | jq -r '.[0].message' | grep -q 'none was named' ||
	fail "the skip does not say a namespace must be named: $json"

out=$(pkstool test all dax0.0) || fail "pkstool test all dax0.0 exited $?: $out"
echo "$out"
for t in check-defaults single-key context-switch exception fault-callback unclaimed \
	 protect stray-write resume nmi key-free ipi-race boundary key-free-window; do
	echo "$out" | grep -qx "\[OK\] $t" || fail "no [OK] line for $t"
done
echo "$out" | grep -q 'all-keys\|crash' && fail "'all' ran all-keys or crash"

expect_rc 0 pkstool test all-keys
json=$(pkstool test --json all all-keys dax0.0) || fail "test --json exited $?"
expect_eq "json tests" "$(echo "$json" | jq 'length')" 15
expect_eq "json passes" \
	"$(echo "$json" | jq '[.[] | select(.result == "pass")] | length')" 15

# No key may stay allocated after the cases.
expect_eq "free keys after tests" \
	"$(info_json '[.keys[] | select(.state == "free")] | length')" 15
expect_eq "cpus back at default PKRS" \
	"$(info_json "[.cpus[] | select(.pkrs == \"$DEFAULT_PKRS\")] | length")" "$(nproc)"
w=$(info_json '[.cpus[].pkrs_writes] | add')
[ "$w" -gt 0 ] || fail "no PKRS writes counted after the tests"
echo "ok: $w PKRS writes counted"

# resume opens every key on every CPU while it runs: with a namespace
# protected it refuses, saying why; with nothing protected (above) it ran.
pkstool enable dax0.0 >/dev/null || fail "enable"
json=$(pkstool test --json resume)
expect_eq "resume with dax0.0 protected" "$(echo "$json" | jq -r '.[0].result')" skip
echo "$json" | jq -r '.[0].message' | grep -q "would open every key" ||
	fail "resume's refusal does not say why: $json"
pkstool disable dax0.0 >/dev/null || fail "disable"
exit 0
