# SPDX-License-Identifier: GPL-2.0
# pks: non-root callers, unknown tests and options, driver refusals, a
# missing test module and a device that is not /dev/pks get clear errors
# and the exit code of their class (1 failed, 2 usage, 77 unsupported).
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
# Non-root: every command that changes something fails (1) and says why,
# with nothing on stdout, in JSON mode too (queries are the operate case's).
for cmd in "enable dax0.0" "disable dax0.0" "test single-key"; do
	out=$(nobody pkstool $cmd --json 2>/dev/null)
	expect_eq "non-root $cmd exit" "$?" 1
	expect_eq "non-root $cmd stdout" "$out" ""
	nobody pkstool $cmd 2>&1 | grep -q '^pkstool: .*: run as root$' ||
		fail "non-root $cmd: unclear"
done
# An error the driver returns is a failure (1), never usage (2), whatever
# its errno: test protect on an fsdax namespace got EINVAL.
setup_namespaces
expect_rc 1 pkstool test protect "$FSDAX_NS"
expect_rc 1 pkstool enable "$RAW_NS"
expect_rc 2 pkstool enable --mode=lax dax0.0
expect_rc 2 pkstool list --bogus
expect_rc 2 pkstool version --bogus
expect_rc 2 pkstool help --bogus
expect_rc 0 pkstool help enable
# No test module: test is unsupported (77), the rest still works (0).
rmmod pks_test || fail "rmmod pks_test"
expect_rc 77 pkstool test single-key
expect_rc 0 pkstool info
load_pks
out=$(PKS_DEVICE=/dev/null pkstool test all 2>&1)
expect_eq "wrong device exit" "$?" 1
echo "$out" | grep -q 'not the pks driver' || fail "wrong-device error unclear: $out"
exit 0
