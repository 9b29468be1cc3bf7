# SPDX-License-Identifier: GPL-2.0
# pks: the data-integrity proof with libpmem2: with protection, 1000 stray
# kernel writes are all refused and the pattern survives while user space
# keeps writing; without it, the same writes corrupt the data.
. /tests/lib.sh

load_pks
setup_namespaces
out=$(pks-integrity "$DAX_NS" 1000)
rc=$?
echo "$out"
[ $rc -eq 0 ] || fail "pks-integrity exited $rc"
echo "$out" | grep -q '^protected: 1000 of 1000 stray writes refused, 0 words damaged, user write ok, guarded read ok$' ||
	fail "protected phase"
echo "$out" | grep -Eq '^control: 0 of 1000 stray writes refused, [1-9][0-9]* words damaged$' ||
	fail "control phase"
exit 0
