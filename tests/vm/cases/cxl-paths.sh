# SPDX-License-Identifier: GPL-2.0
# vm-shape: cxl
# pks: the paths case on CXL persistent memory: the CXL region becomes
# nvdimm region0, its devdax namespace dax0.0, and paths.sh runs on it
# unchanged (every kernel path into a protected devdax mapping works,
# each with its unprotected control). The child's mapping is 16 MiB, not
# 64: QEMU emulates CXL memory access by access (a 64 MiB copy takes ten
# seconds there), and the rule that lets a copy through does not depend on
# its length (a 16 MiB process_vm_readv still spans several timer ticks,
# so several grants).
. /tests/lib.sh

load_pks
cxl_as_region0
export PKS_PATHS_MAP_MIB=16
. /tests/paths.sh
