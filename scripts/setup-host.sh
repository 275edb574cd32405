#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian 12 host packages hmpgov's build and tests need, for
# the host's own architecture only (no foreign architectures, no extra
# suites: other kernels and arm64 binaries are fetched privately by
# scripts/fetch-kernels.sh). Does nothing when all are present.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

packages=(
	make gcc libc6-dev bc bison flex libssl-dev libelf-dev dwarves kmod cpio
	rsync xz-utils file perl
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross
	qemu-system-arm qemu-system-x86 device-tree-compiler
	sparse dkms linux-headers-amd64
	gnuplot-nox python3
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f '${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
[ "$(id -u)" -eq 0 ] || die "missing packages (run as root, or: apt-get install ${missing[*]})"
log "installing: ${missing[*]}"
apt-get update -q >/dev/null
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
