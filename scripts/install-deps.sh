#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install, with apt-get, the Debian packages pkstool needs to build and
# test that are not installed yet. Safe to run again: it installs nothing
# when everything is present.
set -euo pipefail

packages=(
	build-essential clang libclang-rt-14-dev pkg-config kmod bc xz-utils cpio
	qemu-system-x86 busybox-static jq gojq
	libndctl-dev libdaxctl-dev libcxl-dev libpmem2-dev libjson-c-dev
	libcriterion-dev liburing-dev libfuse3-dev asciidoctor man-db ndctl daxctl
	sparse dwarves e2fsprogs xfsprogs pmdk-tools gnuplot-nox
	python3-jsonschema
	dkms libkmod-dev bash-completion libglib2.0-dev uuid-dev libsystemd-dev
	python3-prometheus-client
	dpkg-dev debhelper dh-dkms lintian fakeroot mmdebstrap
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages: ${missing[*]}; run as root" >&2
	exit 1
fi
echo "install-deps: installing ${missing[*]}" >&2
apt-get update -q >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
	"${missing[@]}" >&2
