# SPDX-License-Identifier: GPL-2.0
# pks: libpks in a long-lived context: a rescan sees a namespace created
# after the first scan, and no longer lists it once destroyed; after
# unprotect, key and protection mode read -ENOENT, not their old values.
. /tests/lib.sh

pks_ready
ENOENT=-2
rm -f /tmp/go && mkfifo /tmp/go
# scan_around CMD...: pks-rescan scan, with CMD run between its scans
scan_around() {
	pks-rescan scan < /tmp/go > /tmp/rescan.out &
	local pid=$!
	exec 3> /tmp/go
	# Its first scan is done once it printed it (flushed): wait for that.
	local n=0
	until grep -q "^scan1:" /tmp/rescan.out 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 100 ] || fail "pks-rescan never printed its first scan"
		sleep 0.1
	done
	"$@" > /tmp/cmd.out || fail "$*"
	echo go >&3
	exec 3>&-
	wait $pid || fail "pks-rescan exited $?"
	cat /tmp/rescan.out
}
scan_around ndctl create-namespace -r region0 -m raw -s 32M
new=$(jq -r .dev /tmp/cmd.out)
[ -n "$new" ] || fail "no new namespace"
grep -q "^scan1:.* $new\( \|$\)" /tmp/rescan.out && fail "$new before it was created"
grep -q "^scan2:.* $new\( \|$\)" /tmp/rescan.out || fail "rescan missed $new"
echo "ok: rescan sees $new"
scan_around ndctl destroy-namespace -f "$new"
grep -q "^scan1:.* $new\( \|$\)" /tmp/rescan.out || fail "$new missing before destroy"
grep -q "^scan2:.* $new\( \|$\)" /tmp/rescan.out && fail "rescan still lists $new"
echo "ok: rescan drops $new"

out=$(pks-rescan protect dax0.0) || fail "pks-rescan protect"
echo "$out"
echo "$out" | grep -Eq '^protected: protected 1 key [0-9]+ mode 0$' ||
	fail "state while protected"
expect_eq "state after unprotect" "$(echo "$out" | sed -n 's/^unprotected: //p')" \
	"protected 0 key $ENOENT mode $ENOENT"
exit 0
