# SPDX-License-Identifier: GPL-2.0
# vm-shape: cxl
# pks: the fsdax case on CXL persistent memory: the CXL region becomes
# nvdimm region0 and fsdax.sh runs on its fsdax namespace unchanged (ext4
# and xfs -o dax on the protected namespace, file data checks and fsck,
# strays refused, the unprotected controls).
# require-kmsg: pks: pmem[0-9.]+: 0x[0-9a-f]+\+0x[0-9a-f]+ protected with key [0-9]+
. /tests/lib.sh

load_pks
cxl_as_region0
. /tests/fsdax.sh
