# SPDX-License-Identifier: GPL-2.0
#
# Helpers for the real-boot cases: tests/vm/lib.sh (fail, expect_eq,
# setup_namespaces, ns_json...) plus what only systemd has.
# tests/vm/lib.sh reads its files under /tests, as in the test VM.
ln -sfn /run/pkstest /tests
. /run/pkstest/lib.sh
PAYLOAD=/run/pkstest
kver=$(uname -r)

# no_failed STEP: systemctl --failed lists nothing after STEP
no_failed() {
	local f
	# ndctl's own monitor (Debian enables it) fails on the emulated
	# NVDIMM, pkstool or not: ndctl's, not pkstool's, unit.
	f=$(systemctl --failed --plain --no-legend |
	    grep -v '^ndctl-monitor\.service ')
	[ -z "$f" ] || fail "systemctl --failed after $1: $f"
	echo "ok: no failed unit after $1"
}

# install_build N [APT-OPTION...]: apt-get install build N's packages
# (payload deb/N), all but libpks-dev
install_build() {
	local n=$1 d=/tmp/deb$1
	shift
	mkdir -p "$d" && cp "$PAYLOAD/deb/$n"/*.deb "$d/" &&
		apt-get install -y -q "$@" "$d"/libpks1_*.deb "$d"/pkstool_*.deb \
			"$d"/pks-dkms_*.deb "$d"/pks-test-dkms_*.deb
}

# wait_protected NS MODE: NS protected in MODE within 30 seconds
wait_protected() {
	local i
	for i in $(seq 30); do
		[ "$(ns_json "$1" .protected)" = true ] &&
			[ "$(ns_json "$1" .protection_mode)" = "$2" ] && break
		sleep 1
	done
	# Not protected in time: what the units and udev made of it.
	[ "$(ns_json "$1" .protected)" = true ] || {
		systemctl status --no-pager 'pkstool-protect*' 2>&1 | tail -n 30
		journalctl -b --no-pager -o short-monotonic -u 'pkstool-protect*' |
			tail -n 30
	}
	expect_eq "$1 protected" "$(ns_json "$1" .protected)" true
	expect_eq "$1 mode" "$(ns_json "$1" .protection_mode)" "$2"
}

# finished UNIT: how many times the journal of this boot says UNIT
# finished (a oneshot run to its end)
finished() {
	journalctl -b -o cat -u "$1" | grep -c "^Finished $1"
}

# line_of PATTERN: the first line of this boot's journal matching
# PATTERN (extended regex), by number; 0 when none
line_of() {
	journalctl -b -o cat | grep -nE -m1 -- "$1" | cut -d: -f1 | grep . ||
		echo 0
}

# The namespaces both boots use: dax0.0 strict, the fsdax one relaxed,
# its ext4 in /etc/fstab with -o dax.
MNT=/mnt/pmem
