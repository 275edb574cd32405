#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Copy what DKMS needs (dkms.conf, Kbuild, module/, include/) into a
# source folder, optionally with another version.
#
# usage: scripts/dkms-source.sh DEST [VERSION]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
dest=${1:?usage: dkms-source.sh DEST [VERSION]}
mkdir -p "$dest"
cp -r "$HMPGOV_TOP/dkms.conf" "$HMPGOV_TOP/Kbuild" "$HMPGOV_TOP/module" "$HMPGOV_TOP/include" "$dest/"
if [ -n "${2:-}" ]; then
	sed -i "s/^PACKAGE_VERSION=.*/PACKAGE_VERSION=\"$2\"/" "$dest/dkms.conf"
fi
