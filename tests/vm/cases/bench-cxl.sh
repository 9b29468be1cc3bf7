# SPDX-License-Identifier: GPL-2.0
# suite: bench
# vm-shape: cxl+nfit
# pks: make bench on CXL persistent memory: enable and disable against the
# namespace's size on a CXL region's devdax namespace and on the NVDIMM's,
# side by side in one boot (lib.sh's cost_figure; the same counts
# asserted). The guard-window figure is the CPU's and the key's, not the
# memory's (pks_test.ko's own pages): bench.sh's holds for both.
. /tests/lib.sh

need_cxl
load_pks
jq -cn --arg k "$(uname -r)" --arg m "$(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)" \
	--argjson n "$(nproc)" '{figure: "machine", kernel: $k, cpu_model: $m, vcpus: $n}'
# The NVDIMM's labels first (setup_namespaces): a label-less region
# cannot be divided into namespaces of a size.
setup_namespaces
cxl_create_region
nfit=$(ndctl list -R -b ACPI.NFIT | jq -r '.[0].dev // empty')
[ -n "$nfit" ] || fail "no NVDIMM region beside the CXL one"
echo "pks-bench-progress: cost: enable and disable, NFIT $nfit and CXL $CXL_ND_REGION" > /dev/ttyS0 2>/dev/null
cost_figure "$nfit" NFIT
cost_figure "$CXL_ND_REGION" CXL
exit 0
