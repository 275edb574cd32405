#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Print the lines of a guest console log that show a kernel splat, one per
# kind found, and exit 0 if there are any (1 if the log is clean).
set -u
log=${1:?usage: find-splats.sh LOG}
patterns=(
	'WARNING: CPU:'
	'WARNING: .* at '
	'BUG: '
	'kernel BUG at'
	'Oops'
	'Internal error:'
	'Unable to handle kernel'
	'Kernel panic'
	'KASAN:'
	'UBSAN:'
	'sleeping function called from invalid context'
	'possible circular locking dependency'
	'possible recursive locking'
	'inconsistent lock state'
	'suspicious RCU usage'
	'bad unlock balance'
	'held lock freed'
	'lock held when returning to user space'
	'possible irq lock inversion'
	'DEBUG_LOCKS_WARN_ON'
	'unreferenced object 0x'
	'suspected memory leak'
	'soft lockup'
	'self-detected stall'
	'detected stalls on CPUs'
	'hung_task'
	'blocked for more than'
	'list_add corruption'
	'list_del corruption'
)
found=1
for p in "${patterns[@]}"; do
	line=$(grep -a -m 1 -e "$p" "$log") || continue
	printf '%s: %s\n' "$p" "$line"
	found=0
done
exit $found
