# SPDX-License-Identifier: GPL-2.0
#
# Sourced by the runners that watch a VM's console (tests/bench/run.sh,
# tests/fstests/run.sh).
#
# follow PID LOG MARK PREFIX: while PID (the VM) runs, print to stderr
# each new line of the console LOG that starts with MARK, with MARK
# replaced by PREFIX, as it appears.
follow() {
	local seen=0 lines count
	while :; do
		lines=$(grep -ao -- "$3.*" "$2" 2>/dev/null | tr -d '\r')
		count=$(printf '%s' "$lines" | grep -c '^')
		if [ "$count" -gt "$seen" ]; then
			printf '%s\n' "$lines" | tail -n +$((seen + 1)) |
				sed "s|^$3|$4|" >&2
			seen=$count
		fi
		kill -0 "$1" 2>/dev/null || break
		sleep 5
	done
}
