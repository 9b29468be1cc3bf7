#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-headers.sh [CASEDIR]: the VM cases' boot-order headers say
# something tests/run-all.sh will run (lint/vm-headers). A case headed
# "# suite: after-reboot" runs only as the "# then-boot:" of a case that
# has a boot of its own ("# boot: own", or a "# vm-shape:" other than
# nfit): run-all.sh selects it nowhere else, so one that no such case
# names would silently never run. Each is named by exactly one, and each
# "# then-boot:" names an after-reboot case that exists. Prints one line
# per problem; exit 1 if any.
set -uo pipefail

dir=${1:-$(dirname "$0")/cases}
rc=0
problem() {
	echo "$*"
	rc=1
}
hdr() {
	sed -n "s/^# $2: //p" "$dir/$1.sh"
}
owns() {
	local shape
	shape=$(hdr "$1" vm-shape)
	grep -q '^# boot: own' "$dir/$1.sh" || [ "${shape:-nfit}" != nfit ]
}
declare -A named
for f in "$dir"/*.sh; do
	c=$(basename "$f" .sh)
	next=$(hdr "$c" then-boot)
	[ -n "$next" ] || continue
	if [ ! -f "$dir/$next.sh" ]; then
		problem "$c: then-boot $next: no such case"
	elif ! grep -q '^# suite: after-reboot' "$dir/$next.sh"; then
		problem "$c: then-boot $next: not '# suite: after-reboot' (it would also run on its own)"
	elif grep -Eq '^# suite: (bench|after-reboot)' "$f"; then
		problem "$c: then-boot $next: $c itself is left out of make check"
	elif ! owns "$c"; then
		problem "$c: then-boot $next: $c shares a boot, where then-boot is not read"
	else
		named[$next]=${named[$next]:-}" $c"
	fi
done
for f in "$dir"/*.sh; do
	grep -q '^# suite: after-reboot' "$f" || continue
	c=$(basename "$f" .sh)
	set -- ${named[$c]:-}
	case $# in
	1) ;;
	0) problem "$c: '# suite: after-reboot', but no case's '# then-boot:' names it: it never runs" ;;
	*) problem "$c: named by more than one '# then-boot:' ($*)" ;;
	esac
done
exit $rc
