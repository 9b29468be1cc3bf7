# SPDX-License-Identifier: GPL-2.0
# vm-shape: cxl
# pks: the paths case on CXL persistent memory: the CXL region becomes
# nvdimm region0, its devdax namespace dax0.0, and paths.sh runs on it
# unchanged (every kernel path into a protected devdax mapping works,
# each with its unprotected control).
. /tests/lib.sh

load_pks
cxl_as_region0
. /tests/paths.sh
