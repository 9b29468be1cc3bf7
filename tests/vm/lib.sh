# SPDX-License-Identifier: GPL-2.0
#
# Helpers for VM test cases. A case exits 0 (pass), 77 (skip) or 1 (fail),
# and starts at 77 until its preconditions hold.
rc=77
set -u

fail() {
	echo "FAIL: $*"
	exit 1
}

skip() {
	echo "SKIP: $*"
	exit 77
}

# expect_eq WHAT GOT WANT
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
	echo "ok: $1 = $3"
}

# expect_rc WANT CMD...: run CMD, check its exit code
expect_rc() {
	local want=$1 got
	shift
	"$@"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, expected $want"
	echo "ok: '$*' exited $want"
}

load_pks() {
	[ -e /dev/pks ] && return 0
	insmod /lib/modules/pks.ko || fail "insmod pks.ko failed"
	[ -c /dev/pks ] || fail "/dev/pks did not appear"
}

# info_json FILTER: a jq filter over pkstool info --json's one object
info_json() {
	pkstool info --json | jq -r ".[0] | $1"
}

# The PKRS value the driver keeps outside windows: key 0 RW, 1..15 AD.
DEFAULT_PKRS=0x55555554
