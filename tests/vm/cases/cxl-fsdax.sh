# SPDX-License-Identifier: GPL-2.0
# vm-shape: cxl
# pks: the fsdax case on CXL persistent memory: the CXL region becomes
# nvdimm region0 and fsdax.sh runs on its fsdax namespace unchanged (ext4
# and xfs -o dax on the protected namespace, file data checks and fsck,
# strays refused, the unprotected controls). The big file is 2 MiB, not
# 8 (pks-fileops): QEMU emulates CXL memory access by access, and every
# check and stray target of fsdax.sh lies within the first 2 MiB.
# require-kmsg: pks: pmem[0-9.]+: 0x[0-9a-f]+\+0x[0-9a-f]+ protected with key [0-9]+
. /tests/lib.sh

load_pks
cxl_as_region0
export PKS_FILEOPS_BIG_MIB=2
. /tests/fsdax.sh
