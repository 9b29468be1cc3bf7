# SPDX-License-Identifier: GPL-2.0
# pks: non-root callers, unknown tests and a device that is not /dev/pks
# get clear errors and the right exit codes.
. /tests/lib.sh

load_pks
nobody() { su -s /bin/sh nobody -c "$*"; }
out=$(nobody pkstool test all 2>&1)
expect_eq "non-root exit" "$?" 1
echo "$out" | grep -q 'run as root' || fail "non-root error unclear: $out"
expect_rc 2 pkstool test no-such-test
expect_rc 2 pkstool test
expect_rc 2 pkstool test crash
expect_rc 2 pkstool no-such-command
out=$(PKS_DEVICE=/dev/null pkstool test all 2>&1)
expect_eq "wrong device exit" "$?" 1
echo "$out" | grep -q 'not the pks driver' || fail "wrong-device error unclear: $out"
exit 0
