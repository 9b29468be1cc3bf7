# SPDX-License-Identifier: GPL-2.0
# pks: a kernel path that began before protection did (a reader asleep in
# pipe_read() before the first namespace was protected, so the entry probe
# never saw it) still gets the right data from a protected mapping: its
# fault comes from inside the path, and the task is granted the key
# until it returns to user space (counted as late, logged once). The control: the same reader started
# after the protection is granted through the entry probe, with no late
# grant; and a stray from outside any path is still refused.
# expect-kmsg: WARNING: CPU: [0-9]+ PID: [0-9]+ at arch/x86/mm/fault\.c:[0-9]+
# require-kmsg: pks: pipe: a call already inside pipe_read when protection started was let through
. /tests/lib.sh

load_pks
setup_namespaces
start=$(cat /sys/bus/dax/devices/dax0.0/resource)
# Nothing protected: the grant probes are disarmed.
pkstool disable --all >/dev/null || fail "disable --all"
expect_eq "grants armed" "$(info_json .grants.armed)" false
late() { info_json '.grants.paths[] | select(.name == "pipe") | .late'; }
grants() { info_json '.grants.paths[] | select(.name == "pipe") | .grants'; }

# run_late WHEN: pks-late with the namespace protected before its reader
# starts (WHEN=before) or while it is already in pipe_read (WHEN=after);
# prints pks-late's exit code
run_late() {
	rm -f /tmp/ready /tmp/go
	[ "$1" = before ] && { pkstool enable dax0.0 >/dev/null || fail "enable"; }
	pks-late /dev/dax0.0 /tmp/ready /tmp/go &
	pid=$!
	n=0
	until [ -e /tmp/ready ]; do
		n=$((n + 1))
		[ $n -lt 300 ] || fail "pks-late never got ready"
		sleep 0.1
	done
	[ "$1" = after ] && { pkstool enable dax0.0 >/dev/null || fail "enable"; }
	touch /tmp/go
	wait $pid
	echo $?
}

late0=$(late) grants0=$(grants)
expect_eq "reader that began before the protection" "$(run_late after)" 0
late1=$(late) grants1=$(grants)
[ "$late1" -gt "$late0" ] || fail "no late grant counted ($late0 -> $late1)"
echo "ok: $((late1 - late0)) late grants"
pkstool disable dax0.0 >/dev/null

# The control: the reader starts after the protection; the entry probe
# sees it, so its grant is an ordinary one, none late.
expect_eq "reader that began after the protection" "$(run_late before)" 0
late2=$(late) grants2=$(grants)
expect_eq "late grants in the control" "$late2" "$late1"
[ "$grants2" -gt "$grants1" ] || fail "control: no ordinary grant ($grants1 -> $grants2)"
# And a stray from no path at all is still refused.
pks-ioctl stray $((start + 0x1000)) write >/dev/null
expect_eq "stray write" "$?" 14
pkstool disable dax0.0 >/dev/null
exit 0
