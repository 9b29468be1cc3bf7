#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms-install.sh add|remove VERSION: what make install and make uninstall
# do with DKMS on a real install (no DESTDIR). "add" registers the source
# make install put in /usr/src/pks-VERSION and builds and installs the
# modules for the running kernel, so that modprobe pks works at once;
# DKMS rebuilds them for each kernel installed later. "remove" takes them
# out of every kernel.
set -uo pipefail

action=$1 version=$2
mod=pks/$version

if ! command -v dkms > /dev/null; then
	if [ "$action" = add ]; then
		echo "dkms-install: dkms is not installed: pkstool and libpks are in place, the pks module is not; 'apt-get install dkms' and run make install again" >&2
		exit 1
	fi
	exit 0
fi

case $action in
add)
	if ! dkms status "$mod" | grep -q .; then
		dkms add "$mod" || exit 1
	fi
	if ! dkms install "$mod"; then
		echo "dkms-install: the pks module did not build for $(uname -r): see 'DKMS, Secure Boot, and when the build fails' in docs/operations.md" >&2
		exit 1
	fi
	;;
remove)
	if dkms status "$mod" | grep -q .; then
		dkms remove "$mod" --all || exit 1
	fi
	;;
*)
	echo "usage: dkms-install.sh add|remove VERSION" >&2
	exit 2
	;;
esac
