# SPDX-License-Identifier: GPL-2.0
# init: what a case leaves running is killed when it ends, before the
# next case starts (tests/vm/run-case): a failed case's background job,
# the child of a shell that exited, a daemon in a session of its own (as
# daemon(3), pkstool monitor --daemon, makes), and a timed-out case's
# command it was waiting for too. Control: the same cases run as init ran
# them before (timeout and sh, nothing after) leave all of them running.
. /tests/lib.sh

cat > /tmp/leaver.sh <<'CASE'
sleep 1001 &
setsid sleep 1002 &
sh -c 'sleep 1003 & exit 0'
[ -n "${LEAVER_HANG:-}" ] && sleep 1004
exit 1
CASE
# the leaver's sleeps still running (busybox has no pgrep); a process's
# command line is read only when its name is sleep: a fork for each
# process, ten times a case, took a minute under TCG.
sleeps() {
	local d comm
	for d in /proc/[0-9]*; do
		read -r comm 2>/dev/null < "$d/comm" || continue
		[ "$comm" = sleep ] || continue
		case $(tr '\0' ' ' < "$d/cmdline" 2>/dev/null) in
		"sleep 100"[1-4]" ") echo "${d#/proc/}" ;;
		esac
	done
}
left() {
	sleeps | wc -l
}
cleanup() {
	kill $(sleeps)
	sleep 0.5
	expect_eq "$1: cleaned up" "$(left)" 0
}
expect_eq "before" "$(left)" 0

# Controls: the way tests/vm/init ran a case before run-case.
(cd /tmp && timeout 30 sh /tmp/leaver.sh) > /tmp/control.out 2>&1
expect_eq "control, failed case: exit" $? 1
expect_eq "control, failed case: left running" "$(left)" 3
cleanup "control, failed case"
(cd /tmp && LEAVER_HANG=1 timeout 3 sh /tmp/leaver.sh) > /tmp/control.out 2>&1
expect_eq "control, timed-out case: exit" $? 143
expect_eq "control, timed-out case: left running" "$(left)" 4
cleanup "control, timed-out case"

/tests/run-case /tmp/leaver.sh /tmp/failed.out 30
expect_eq "failed case: exit" $? 1
expect_eq "failed case: left running" "$(left)" 0
cat /tmp/failed.out
grep -q '^run-case: killed what the case left running: sleep\[[0-9]*\] sleep\[[0-9]*\] sleep\[[0-9]*\]$' /tmp/failed.out ||
	fail "failed case: run-case did not name the three sleeps"

LEAVER_HANG=1 /tests/run-case /tmp/leaver.sh /tmp/hung.out 3
expect_eq "timed-out case: exit" $? 143
expect_eq "timed-out case: left running" "$(left)" 0
cat /tmp/hung.out
grep -q '^run-case: killed what the case left running: sleep\[[0-9]*\] sleep\[[0-9]*\] sleep\[[0-9]*\] sleep\[[0-9]*\]$' /tmp/hung.out ||
	fail "timed-out case: run-case did not name the four sleeps"

# A case that leaves nothing gets no note.
echo 'exit 0' > /tmp/clean.sh
/tests/run-case /tmp/clean.sh /tmp/clean.out 30
expect_eq "clean case: exit" $? 0
expect_eq "clean case: output" "$(cat /tmp/clean.out)" ""
