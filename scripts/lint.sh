#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.pl --strict on every C source and header of the project.
# usage: scripts/lint.sh [LINUX_SOURCE_TREE]   (default: the cached one)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
tree=${1:-$(ls -d "$HMPGOV_CACHE"/src/linux-source-6.12-*/ 2>/dev/null | head -n 1)}
[ -x "$tree/scripts/checkpatch.pl" ] || die "no checkpatch.pl (run scripts/build-kernel.sh first)"
cd "$HMPGOV_TOP"
mapfile -t files < <(git ls-files -co --exclude-standard '*.c' '*.h')
# Trace event headers keep the kernel's own TRACE_EVENT layout (as in
# include/trace/events/*.h), which --strict flags for open-ended lines and
# alignment; those two checks are waived for them alone.
trace_headers=()
others=()
for f in "${files[@]}"; do
	case $f in
	*/trace_events.h) trace_headers+=("$f") ;;
	*) others+=("$f") ;;
	esac
done
cp=("$tree/scripts/checkpatch.pl" --strict --no-tree -f --terse --show-types)
out=$({ "${cp[@]}" "${others[@]}"
	[ ${#trace_headers[@]} -eq 0 ] ||
		"${cp[@]}" --ignore OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT "${trace_headers[@]}"; } 2>&1 |
	grep -v 'total: 0 errors, 0 warnings, 0 checks' || true)
if [ -n "$out" ]; then
	printf '%s\n' "$out"
	exit 1
fi
echo "checkpatch: ${#files[@]} files clean"
