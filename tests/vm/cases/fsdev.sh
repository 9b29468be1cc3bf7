# SPDX-License-Identifier: GPL-2.0
# pks: a dax device bound to fsdev_dax (newer kernels: a dax driver that
# lends the memory to a file system, famfs) is refused protection with
# the reason, and nothing is keyed. The control: bound to device_dax
# again, the same device is protected. SKIP where the kernel has no
# fsdev_dax.
# Cases share a boot: start from an unloaded driver.
. /tests/lib.sh

[ -f /lib/modules/fsdev_dax.ko ] || skip "this kernel has no fsdev_dax"
pks_ready none
insmod /lib/modules/fsdev_dax.ko 2>/dev/null
[ -d /sys/bus/dax/drivers/fsdev_dax ] || fail "fsdev_dax did not register"

rebind() {
	local now
	now=$(basename "$(readlink /sys/bus/dax/devices/dax0.0/driver)")
	[ "$now" = "$1" ] && return 0
	echo dax0.0 > "/sys/bus/dax/drivers/$now/unbind" ||
		fail "cannot unbind dax0.0 from $now"
	# The dax bus binds a driver by its id list: new_id adds to it
	# and attaches (what daxctl does for kmem).
	echo dax0.0 > "/sys/bus/dax/drivers/$1/bind" 2>/dev/null ||
		echo dax0.0 > "/sys/bus/dax/drivers/$1/new_id" ||
		fail "cannot bind dax0.0 to $1"
	expect_eq "dax0.0's driver" \
		"$(basename "$(readlink /sys/bus/dax/devices/dax0.0/driver)")" "$1"
}

rebind fsdev_dax
out=$(pkstool enable dax0.0 2>&1)
rc=$?
echo "$out"
[ $rc -ne 0 ] || fail "pkstool enable dax0.0 succeeded on a device bound to fsdev_dax"
echo "$out" | grep -q "fsdev_dax" || fail "the refusal does not name fsdev_dax"
expect_eq "keys in use" \
	"$(info_json '[.keys[] | select(.state != "free" and .key != 0)] | length')" 0

# The control: bound to device_dax again, the device is protected.
rebind device_dax
expect_rc 0 pkstool enable dax0.0
expect_rc 0 pkstool disable dax0.0
nothing_held || fail "something is still held"
unload_pks
rmmod fsdev_dax
exit 0
