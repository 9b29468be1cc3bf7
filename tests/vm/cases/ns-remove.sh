# SPDX-License-Identifier: GPL-2.0
# pks: a protected namespace that is disabled (its dax device unbound) is
# released first: no keyed entries or key left behind, and it comes back
# unprotected and usable; enabling and disabling while the namespace is
# disabled and enabled under it leaves nothing keyed.
# expect-kmsg: WARNING: CPU: [0-9]+ PID: [0-9]+ at arch/x86/mm/fault\.c:[0-9]+
# require-kmsg: pks: dax0.0 is going away while protected: releasing it
. /tests/lib.sh

load_pks
setup_namespaces
pkstool enable dax0.0 || fail "enable"
ndctl disable-namespace "$DAX_NS" || fail "ndctl disable-namespace"
expect_eq "keys free" "$(info_json '[.keys[] | select(.state == "free")] | length')" 15
ndctl enable-namespace "$DAX_NS" || fail "ndctl enable-namespace"
expect_eq "unprotected" "$(ns_json "$DAX_NS" .protected)" false
expect_rc 0 pkstool test protect dax0.0

# Protection racing teardown: enable/disable in a loop while the namespace
# is disabled and enabled under it, for a bounded number of rounds. No
# oops (the runner judges the log), and afterwards every key is free and
# the range is plain memory again.
( i=0; while [ $i -lt 40 ]; do
	pkstool enable dax0.0 >/dev/null 2>&1
	pkstool disable dax0.0 >/dev/null 2>&1
	i=$((i + 1))
done ) &
racer=$!
i=0
while [ $i -lt 10 ]; do
	ndctl disable-namespace "$DAX_NS" >/dev/null 2>&1
	ndctl enable-namespace "$DAX_NS" >/dev/null 2>&1
	i=$((i + 1))
done
wait $racer
ndctl enable-namespace "$DAX_NS" >/dev/null 2>&1
pkstool disable --all >/dev/null 2>&1
expect_eq "keys free after the race" \
	"$(info_json '[.keys[] | select(.state == "free")] | length')" 15
expect_rc 0 pkstool test protect dax0.0
exit 0
