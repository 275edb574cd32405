#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The main job: set up what is needed, boot the default QEMU big.LITTLE
# machine (2 little + 2 big, dts/bl-2x2.dts) on Debian's 6.12 kernel, and
# print the kernel's own view of the CPUs beside hmpgov's.
#
# usage: scripts/demo.sh [KID [MACHINE [module params...]]]
#   e.g. scripts/demo.sh deb-6.1-arm64 sym-4 capacity=446,446,1024,1024
set -euo pipefail
source "$(dirname "$0")/lib.sh"
kid=${1:-deb-6.12-arm64}
machine=${2:-bl-2x2}
shift $(( $# > 2 ? 2 : $# ))
params="$*"

prepare_guest "$kid"
log "booting $kid on $machine"
"$HMPGOV_TOP/scripts/run-qemu.sh" "$kid" "$machine" HT_MODE=demo \
	${params:+"HT_PARAMS=${params// /+}"} >/dev/null || true
log_file=$HMPGOV_BUILD/logs/$kid-$machine.log
if ! grep -aq '^@@OUT ' "$log_file"; then
	die "the guest printed nothing (see $log_file)"
fi
grep -a '^@@OUT ' "$log_file" | sed 's/^@@OUT //; s/^ $//'
