# SPDX-License-Identifier: GPL-2.0
# pks: keys run out through the CLI: with more protectable namespaces
# than the 15 keys, enable --all protects 15, refuses the rest with the
# reason and exits 1 after reporting every one; a re-run changes nothing
# ("already" for the 15, the rest still refused); disable --all frees all
# 15 keys. The namespaces it adds are destroyed again.
. /tests/lib.sh

pks_ready none
created=
cleanup() {
	pkstool disable --all >/dev/null 2>&1
	for ns in $created; do
		ndctl destroy-namespace -f "$ns" >/dev/null 2>&1
	done
}
trap cleanup EXIT
for i in $(seq 15); do
	json=$(ndctl create-namespace -r region0 -m devdax -a 2M -s 32M) ||
		fail "cannot create devdax namespace $i"
	ns=$(echo "$json" | jq -r .dev)
	created="$created $ns"
done
# 16 devdax namespaces and one fsdax: 17 to protect, 15 keys.
want=$(pkstool list --json | jq '[.[] | select(.mode == "devdax" or .mode == "fsdax")] | length')
expect_eq "protectable namespaces" "$want" 17
json=$(pkstool enable --all --json 2>/tmp/enable.err)
expect_eq "enable --all exit" "$?" 1
expect_eq "reported" "$(echo "$json" | jq length)" 17
expect_eq "enabled" "$(echo "$json" | jq '[.[] | select(.result == "enabled")] | length')" 15
expect_eq "refused" "$(echo "$json" | jq '[.[] | select(.result == "refused")] | length')" 2
echo "$json" | jq -e 'all(.[] | select(.result == "refused"); .reason | test("no free protection key"))' >/dev/null ||
	fail "refusal reason: $json"
grep -q "15 enabled, 0 already, 0 changed, 2 refused" /tmp/enable.err ||
	fail "summary: $(cat /tmp/enable.err)"
expect_eq "free keys" "$(info_json '[.keys[] | select(.state == "free")] | length')" 0
json=$(pkstool enable --all --json 2>/dev/null)
expect_eq "re-run exit" "$?" 1
expect_eq "re-run already" "$(echo "$json" | jq '[.[] | select(.result == "already")] | length')" 15
expect_eq "re-run refused" "$(echo "$json" | jq '[.[] | select(.result == "refused")] | length')" 2
json=$(pkstool disable --all --json) || fail "disable --all exited $?"
expect_eq "disabled" "$(echo "$json" | jq '[.[] | select(.result == "disabled")] | length')" 15
expect_eq "not-protected" "$(echo "$json" | jq '[.[] | select(.result == "not-protected")] | length')" 2
expect_eq "free keys after" "$(info_json '[.keys[] | select(.state == "free")] | length')" 15
exit 0
