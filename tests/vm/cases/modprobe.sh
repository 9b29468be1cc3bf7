# SPDX-License-Identifier: GPL-2.0
# pks: the hint for a missing driver is true. Before the modules are
# installed for the running kernel, pkstool says so and names the
# kernel; once they are in /lib/modules/KVER/updates/dkms, where DKMS
# puts them, and depmod ran, it says 'modprobe pks' (and 'modprobe
# pks_test' for the tests), and kmod's modprobe loads them and takes
# them out again.
. /tests/lib.sh

kver=$(uname -r)
dir=/lib/modules/$kver
[ -e "$dir" ] && fail "$dir exists before the case installed anything"
unload_pks
setup_namespaces 2>/dev/null
out=$(pkstool enable dax0.0 2>&1)
echo "$out"
echo "$out" | grep -q "the pks module is not installed for kernel $kver: with the packages, 'apt install pks-dkms linux-headers-$kver' builds it" ||
	fail "no 'not installed' hint before the install: $out"
echo "$out" | grep -q "from a source tree, 'make install'" ||
	fail "the hint does not name the source tree's step: $out"
echo "$out" | grep -q "modprobe pks'" && fail "hint says modprobe before the install: $out"

mkdir -p "$dir/updates/dkms"
cp /lib/modules/pks.ko /lib/modules/pks_test.ko "$dir/updates/dkms/"
/sbin/depmod -a "$kver" 2>/dev/null || fail "depmod failed"
out=$(pkstool enable dax0.0 2>&1)
rc=$?
expect_eq "enable without the driver" "$rc" 77
echo "$out" | grep -q "the pks driver is not loaded (/dev/pks is missing): load it with 'modprobe pks'" ||
	fail "no modprobe hint after the install: $out"
/sbin/modprobe pks || fail "modprobe pks failed"
[ -c /dev/pks ] || fail "/dev/pks missing after modprobe pks"
out=$(pkstool test check-defaults 2>&1)
rc=$?
expect_eq "test without the test module" "$rc" 77
echo "$out" | grep -q "load it with 'modprobe pks_test', never on a production machine" ||
	fail "no modprobe pks_test hint: $out"
/sbin/modprobe pks_test || fail "modprobe pks_test failed"
expect_tests_pass check-defaults
/sbin/modprobe -r pks_test pks || fail "modprobe -r failed"
[ -e /dev/pks ] && fail "/dev/pks still there after modprobe -r"
rm -rf "$dir"
exit 0
