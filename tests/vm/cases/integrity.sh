# SPDX-License-Identifier: GPL-2.0
# pks: the data-integrity proof with libpmem2: with protection, 1000 stray
# kernel writes are all refused and the pattern survives while user space
# keeps writing; without it, the same writes corrupt the data.
. /tests/lib.sh

pks_ready
integrity_proof "$DAX_NS"
exit 0
