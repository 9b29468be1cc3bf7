#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# verdict-ok.sh FILE CASE...: whether run-vm.sh's verdict in FILE passed
# every CASE and its boot: a PASS line for each, and no FAIL or SKIP line
# at all. make bench and make stress judge their VMs with it, so that a
# skipped or missing case fails them as it fails make check (whose
# tests/allowed-skips lists no benchmark or stress case). Prints what is
# wrong to stderr.
set -uo pipefail
file=$1
shift
ok=0
if grep -E '^(FAIL|SKIP) ' "$file" >&2; then
	ok=1
fi
for c in "$@" boot; do
	grep -Eq "^PASS [^ ]+/$c( |$)" "$file" || {
		echo "no PASS line for $c in $file" >&2
		ok=1
	}
done
exit $ok
