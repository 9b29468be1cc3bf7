# SPDX-License-Identifier: GPL-2.0
# pks: what 'make run' shows: the driver loads on an emulated PKS CPU,
# every CPU is enabled, and the built-in cases pass.
# expect-kmsg: WARNING: CPU: [0-9]+ PID: [0-9]+ at arch/x86/mm/fault\.c:[0-9]+
. /tests/lib.sh

echo "### kernel $(uname -r), $(nproc) CPUs"
load_pks
echo "### pkstool info"
pkstool info || fail "pkstool info exited $?"
echo "### pkstool test all all-keys"
pkstool test all all-keys || fail "pkstool test exited $?"
exit 0
