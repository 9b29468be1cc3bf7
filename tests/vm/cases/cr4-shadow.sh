# SPDX-License-Identifier: GPL-2.0
# pks: CR4.PKS survives the kernel's own CR4 writes, which it makes from
# its per-CPU CR4 shadow: pks must set the bit so that the shadow has it
# (cr4_update_irqsoff() where exported to modules; on kernels that export
# it to KVM only, driver/cr4.c). pks-tsc makes the kernel set and toggle
# CR4.TSD on every CPU, through cr4_update_irqsoff() and at context
# switches from the shadow; afterwards every online CPU still has CR4.PKS
# (read from the register) and a stray on each CPU is refused. A bit
# written to the register alone would be gone (cr4_pks false, the stray
# going through).
# Cases share a boot: start from an unloaded driver.
. /tests/lib.sh

pks_ready none
n=$(grep -c ^processor /proc/cpuinfo)
expect_rc 0 pkstool enable dax0.0
expect_rc 0 pks-tsc 20
expect_eq "online CPUs with CR4.PKS after the TSD toggles" \
	"$(info_json '[.cpus[] | select(.online and .cr4_pks)] | length')" "$n"
for c in $(seq 0 $((n - 1))); do
	expect_rc 14 taskset -c "$c" pks-ioctl stray $((DAX_START + 0x2000)) write
done
expect_rc 0 pkstool disable dax0.0
nothing_held || fail "something is still held"
unload_pks
exit 0
