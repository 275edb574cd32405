#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# A wrong guess of a tracepoint's prototype must be a build error.
#
# Kbuild picks the probes' argument lists (include/hmpgov/compat.h) by
# reading the kernel's headers; module/tracking.c passes each probe to
# the kernel's own check_trace_callback_type_*(). This builds
# module/tracking.o for one kernel of the matrix twice: as Kbuild decides
# (must build), and with KCFLAGS=-DMACRO forcing the wrong argument list
# (must fail, at the check of TRACEPOINT's probe, with an incompatible
# pointer type, as gcc words it: the matrix builds with gcc).
#
# usage: scripts/compat-check.sh KID MACRO TRACEPOINT
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kid=${1:?usage: compat-check.sh KID MACRO TRACEPOINT}
macro=${2:?usage: compat-check.sh KID MACRO TRACEPOINT}
tp=${3:?usage: compat-check.sh KID MACRO TRACEPOINT}
env=$HMPGOV_KERNELS/$kid.env
[ -f "$env" ] || die "$kid: not fetched (run scripts/fetch-kernels.sh)"
# shellcheck disable=SC1090
source "$env"

src=$HMPGOV_BUILD/$kid/compat-check
mkdir -p "$src"
rsync -a --delete --exclude '*.o' --exclude '*.ko' --exclude '.*.cmd' \
	"$HMPGOV_TOP/Kbuild" "$HMPGOV_TOP/module" "$HMPGOV_TOP/include" "$src/"
args=(-C "$KDIR" M="$src" ARCH="$ARCH")
[ -n "$CROSS_COMPILE" ] && args+=(CROSS_COMPILE="$CROSS_COMPILE")
[ -n "$KCC" ] && args+=(CC="$KCC")

if ! make "${args[@]}" module/tracking.o >"$src/right.log" 2>&1; then
	cat "$src/right.log" >&2
	die "$kid: module/tracking.o does not build as Kbuild decides"
fi
rm -f "$src/module/tracking.o"
if make "${args[@]}" KCFLAGS="-D$macro" module/tracking.o >"$src/wrong.log" 2>&1; then
	die "$kid: module/tracking.o built with -D$macro: a wrong probe prototype went unnoticed"
fi
# the error names the check of that tracepoint and the pointer type
if ! grep -E "check_trace_callback_type_$tp\b.*incompatible|incompatible.*check_trace_callback_type_$tp\b" \
	"$src/wrong.log" >"$src/wrong.match"; then
	cat "$src/wrong.log" >&2
	die "$kid: the build with -D$macro failed, but not on $tp's probe type"
fi
head -n 1 "$src/wrong.match"
log "$kid: -D$macro (a wrong guess) is a build error"
