#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build hmpgov.ko and the test-only modules of selftests/kmod for one
# kernel of the matrix, with W=1; any compiler or modpost warning fails
# the build.
#
# usage: scripts/build-module.sh KID [extra make args, e.g. C=1]
# output: $HMPGOV_BUILD/KID/hmpgov.ko, kmod/*.ko and build.log
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kid=${1:?usage: build-module.sh KID [make args]}
shift
env=$HMPGOV_KERNELS/$kid.env
[ -f "$env" ] || die "$kid: not fetched (run scripts/fetch-kernels.sh or build-kernel.sh)"
# shellcheck disable=SC1090
source "$env"

out=$HMPGOV_BUILD/$kid
src=$out/src
# objects built against another tree of the same id (a new kernel
# config) would look up to date to make: start again
[ "$(cat "$out/kdir" 2>/dev/null)" = "$KDIR" ] || rm -rf "$src"
mkdir -p "$src"
echo "$KDIR" >"$out/kdir"
# Kbuild writes objects next to the sources: build a copy per kernel.
rsync -a --delete --exclude '*.o' --exclude '*.ko' --exclude '.*.cmd' \
	"$HMPGOV_TOP/Kbuild" "$HMPGOV_TOP/module" "$HMPGOV_TOP/include" "$src/"
rsync -a --delete --exclude '*.o' --exclude '*.ko' --exclude '.*.cmd' \
	"$HMPGOV_TOP/selftests/kmod/" "$src/kmod/"

args=(-C "$KDIR" M="$src" ARCH="$ARCH" W=1)
[ -n "$CROSS_COMPILE" ] && args+=(CROSS_COMPILE="$CROSS_COMPILE")
[ -n "$KCC" ] && args+=(CC="$KCC")
if ! { make "${args[@]}" "$@" modules &&
	make "${args[@]/#M=*/M=$src/kmod}" "$@" modules; } >"$out/build.log" 2>&1; then
	cat "$out/build.log" >&2
	die "$kid: build failed"
fi
if grep -E 'warning:|WARNING:|error:' "$out/build.log" >&2; then
	die "$kid: the build printed warnings (see $out/build.log)"
fi
cp "$src/hmpgov.ko" "$out/hmpgov.ko"
mkdir -p "$out/kmod"
cp "$src"/kmod/*.ko "$out/kmod/"
log "$kid: built $out/hmpgov.ko ($KVER)"
