# SPDX-License-Identifier: GPL-2.0
# pks: every command's --json output, in the states that fill each key
# (protected and not, every result word, fault records, a monitor event,
# a followed record), printed for the host to check against its schema in
# tests/schema (pkstool-json(7)); here, the shapes a script relies on:
# always an array of objects, stream lines each one object.
. /tests/lib.sh

pks_ready none

# capture SCHEMA CMD...: run pkstool CMD --json, which must exit 0 and
# print an array of objects, and emit it
capture() {
	local schema=$1 out
	shift
	out=$(pkstool "$@" --json) || fail "pkstool $* --json exited $?"
	echo "$out" | jq -e 'type == "array" and all(.[]; type == "object")' >/dev/null ||
		fail "pkstool $* --json is not an array of objects: $out"
	echo "$out" | emit_json "$schema"
}

capture list list
capture list list -u
capture enable enable dax0.0 "$FSDAX_NS"
capture enable enable dax0.0
capture enable enable --mode=relaxed dax0.0
capture enable enable --mode=strict dax0.0
out=$(pkstool enable --json "$RAW_NS")
expect_eq "refused enable exit" "$?" 1
echo "$out" | emit_json enable
capture list list
capture info info

pkstool monitor --json > /tmp/monitor.json &
mon=$!
next=$(( $(last_seq) + 1 ))
pkstool faults --follow --json --since "$next" > /tmp/follow.json &
follower=$!
wait_polling $mon "pkstool monitor"
wait_polling $follower "pkstool faults --follow"
out=$(pks-ioctl stray $((DAX_START + 0x3000)) write)
expect_eq "stray write" "$?" 14
# Protection ending and starting again: two events for the monitor, none
# for faults --follow (they are not stray accesses).
pkstool disable dax0.0 >/dev/null || fail "disable under the monitor"
pkstool enable --mode=relaxed dax0.0 >/dev/null || fail "enable under the monitor"
# No wait: on SIGTERM both read the log once more before they exit.
kill -TERM $mon $follower
wait $mon $follower
expect_eq "monitor lines" "$(jq -s 'map(select(type == "object")) | length' /tmp/monitor.json)" 3
expect_eq "monitor events" "$(jq -r '"\(.event) \(.mode)"' /tmp/monitor.json | tr '\n' ' ')" \
	"fault null unprotected null protected relaxed "
expect_eq "followed lines" "$(jq -s 'map(select(type == "object")) | length' /tmp/follow.json)" 1
emit_json monitor lines < /tmp/monitor.json
emit_json faults-follow lines < /tmp/follow.json
capture faults faults
capture faults faults dax0.0

capture disable disable dax0.0 "$FSDAX_NS"
capture disable disable dax0.0 "$RAW_NS"
capture disable disable --all
capture test test single-key
capture test-list test --list
capture version version
capture help help
capture info info
unload_pks
capture info info
capture list list
# Without the driver, list still shows every namespace ndctl knows, each
# unprotected: its content, not only its shape.
expect_eq "list without the driver" \
	"$(pkstool list --json | jq -c '[.[] | {dev, mode, protected}] | sort_by(.dev)')" \
	"$(ndctl list -N | jq -c '[.[] | {dev, mode, protected: false}] | sort_by(.dev)')"
capture disable disable --all
load_pks
exit 0
