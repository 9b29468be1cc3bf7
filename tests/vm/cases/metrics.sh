# SPDX-License-Identifier: GPL-2.0
# pkstool metrics with a protected namespace that took stray writes: the
# file is replaced atomically, and carries the namespace protected in
# its mode, its fault count, per-CPU PKRS counters, grants by rule and
# context, and the refill, spurious-fault and interrupt-boundary
# counters. The host parses the file with Prometheus's own parser
# (python3-prometheus-client) and checks the values: the host-check line
# below. Control: the same metrics before protection say unprotected
# with no faults.
# host-check: tests/vm/check-metrics.py
# expect-kmsg: pks: stray (read|write) to dax0\.0
. /tests/lib.sh

pks_ready
pkstool disable --all > /dev/null 2>&1
out=/tmp/textfile/pkstool.prom
mkdir -p /tmp/textfile
pkstool metrics --output "$out" || fail "metrics --output failed"
grep -q "^pkstool_namespace_protected{namespace=\"$DAX_NS\",device=\"dax0.0\"} 0$" "$out" ||
	fail "unprotected namespace not at 0: $(cat $out)"
echo "--- metrics before"
cat "$out"
echo "--- end"

expect_rc 0 pkstool enable --mode=strict dax0.0
expect_tests_pass stray-write dax0.0
pkstool metrics --output "$out" || fail "metrics --output failed"
ls /tmp/textfile | grep -v '^pkstool.prom$' && fail "temporary files left in the textfile directory"
grep -q "^pkstool_namespace_protected{namespace=\"$DAX_NS\",device=\"dax0.0\"} 1$" "$out" ||
	fail "protected namespace not at 1"
echo "--- metrics after"
cat "$out"
echo "--- end"
expect_rc 0 pkstool disable dax0.0
rc=0
exit 0
