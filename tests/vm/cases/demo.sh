# SPDX-License-Identifier: GPL-2.0
# pks: what 'make run' shows: the driver loads on an emulated PKS CPU,
# every CPU is enabled, the built-in cases pass, a devdax namespace is
# protected, and stray kernel writes to it are refused with data intact.
. /tests/lib.sh

echo "### kernel $(uname -r), $(nproc) CPUs"
load_pks
echo "### pkstool info"
pkstool info || fail "pkstool info exited $?"
setup_namespaces
echo "### pkstool test all all-keys dax0.0 (the cases write into the namespace named)"
pkstool test all all-keys dax0.0 || fail "pkstool test exited $?"
echo "### pkstool enable dax0.0"
pkstool enable dax0.0 || fail "pkstool enable exited $?"
echo "### pkstool list -u"
pkstool list -u || fail "pkstool list exited $?"
echo "### pks-integrity $DAX_NS: libpmem2 writes a pattern, the kernel makes 1000 stray writes"
pkstool disable dax0.0 >/dev/null 2>&1
pks-integrity "$DAX_NS" 1000 || fail "pks-integrity exited $?"
exit 0
