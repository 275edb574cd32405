#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch the QEMU that runs the arm64 guests in deterministic time into the
# cache, without touching the system's apt state, and record it in
# $HMPGOV_CACHE/qemu.env (QEMU_ICOUNT_AARCH64, QEMU_ICOUNT_VERSION).
#
# Why not Debian 12's own QEMU 7.2: with -icount its round-robin loop
# gives each vCPU the instruction budget up to the next timer deadline,
# in vCPU order, so a vCPU that never idles takes the whole budget and
# the higher-numbered vCPUs do not run while guest time goes on (seen
# here: with two busy tasks, `taskset -c N true` took 790-960 ms of guest
# time; QEMU 8.1 and later share the budget between the vCPUs: 70-80 ms).
# bookworm-backports builds a newer QEMU against Debian 12's libraries;
# only its binary is extracted, the host's /usr/share/qemu serves the data.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

apt_private_update
ver=$(suite_versions qemu-system-arm:amd64 bookworm-backports | head -n 1)
[ -n "$ver" ] || die "no qemu-system-arm in bookworm-backports"
root=$HMPGOV_CACHE/qemu/$(printf '%s' "$ver" | tr ':~+' '___')
if [ ! -f "$root/.done" ]; then
	rm -rf "$root"
	mkdir -p "$root"
	dpkg-deb -x "$(deb_fetch "qemu-system-arm:amd64=$ver")" "$root"
	touch "$root/.done"
fi
bin=$root/usr/bin/qemu-system-aarch64
missing=$(ldd "$bin" | awk '/not found/ { print $1 }' | tr '\n' ' ')
[ -z "$missing" ] || die "QEMU $ver: libraries missing on the host: $missing"
"$bin" --version | head -n 1 >&2
{
	echo "QEMU_ICOUNT_AARCH64=$bin"
	echo "QEMU_ICOUNT_VERSION=$ver"
} >"$HMPGOV_CACHE/qemu.env"
log "QEMU for deterministic guest time: $ver"
