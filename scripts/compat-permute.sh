#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Every branch of include/hmpgov/compat.h builds somewhere, with W=1 and
# sparse.
#
# The matrix (5.10, 6.1, 6.12) sets some feature macros everywhere but
# on 5.10, so a fallback would otherwise be built only together with all
# the others, against 5.10's headers; kernels between 5.10 and 6.1 (5.15
# LTS) mix them. For each macro whose fallback is a choice of ours, not
# of the kernel's prototypes or field names, hmpgov is built once more
# on the newest matrix kernel that has the feature, with the macro left
# unset (Kbuild's HMPGOV_COMPAT_OFF). Then every macro must have been
# built both set and unset: natively on some matrix kernel (read from
# the objects of make check's builds) or by such a forced build.
#
# Prints a TAP line per macro; exits 1 if any fails.
#
# usage: scripts/compat-permute.sh   (after build-module.sh KID C=1 for
#                                     each kernel of the matrix)
set -uo pipefail
source "$(dirname "$0")/lib.sh"

# Set by the kernel's own interfaces: the other branch cannot build where
# the feature exists (a probe prototype, a renamed field).
kernel_bound="HMPGOV_SWITCH_PREV_STATE HMPGOV_STAT_RUNTIME_VRUNTIME HMPGOV_HAVE_TASK___STATE"
# the own kernel has CONFIG_UCLAMP_TASK: the uclamp macros change its code
force_kid=own-6.12-arm64

# the macros Kbuild can set, and the list compat.h documents
mapfile -t macros < <(grep -oE -- '-DHMPGOV_[A-Z_]+' "$HMPGOV_TOP/Kbuild" |
	sed 's/^-D//' | sort -u)
documented=$(sed -n '1,/^#ifndef/p' "$HMPGOV_TOP/include/hmpgov/compat.h" |
	grep -oE '^ \*   HMPGOV_[A-Z_]+' | sed 's/^ \*   //' | sort -u)
status=0
if [ "$documented" = "$(printf '%s\n' "${macros[@]}")" ]; then
	echo "ok - compat.h documents each of Kbuild's ${#macros[@]} feature macros"
else
	echo "not ok - compat.h documents each of Kbuild's feature macros"
	diff <(echo "$documented") <(printf '%s\n' "${macros[@]}") | sed 's/^/# /'
	status=1
fi

# what each matrix kernel's build set
declare -A on off
while read -r kid _; do
	cmd=$HMPGOV_BUILD/$kid/src/module/.tracking.o.cmd
	# build-module.sh copies hmpgov.ko after each build that passed
	if [ ! -f "$cmd" ] || [ "$HMPGOV_BUILD/$kid/hmpgov.ko" -ot "$HMPGOV_TOP/Kbuild" ]; then
		echo "not ok - compat: $kid was built (scripts/build-module.sh $kid C=1)"
		status=1
		continue
	fi
	for m in "${macros[@]}"; do
		if grep -qw -- "-D$m" "$cmd"; then
			on[$m]+=" $kid"
		else
			off[$m]+=" $kid"
		fi
	done
done < <(matrix_entries)

env=$HMPGOV_KERNELS/$force_kid.env
[ -f "$env" ] || die "$force_kid: not fetched"
# shellcheck disable=SC1090
source "$env"
args=(-C "$KDIR" ARCH="$ARCH" W=1 C=1 -j"$(nproc)")
[ -n "$CROSS_COMPILE" ] && args+=(CROSS_COMPILE="$CROSS_COMPILE")
[ -n "$KCC" ] && args+=(CC="$KCC")

for m in "${macros[@]}"; do
	if [[ " $kernel_bound " != *" $m "* ]] && [[ ${on[$m]:-} == *" $force_kid"* ]]; then
		src=$HMPGOV_BUILD/compat-permute/$m
		rm -rf "$src"
		mkdir -p "$src"
		cp -r "$HMPGOV_TOP/Kbuild" "$HMPGOV_TOP/module" "$HMPGOV_TOP/include" "$src/"
		if ! make "${args[@]}" M="$src" HMPGOV_COMPAT_OFF="$m" modules \
			>"$src/build.log" 2>&1; then
			echo "not ok - compat: $m unset builds on $force_kid (log: $src/build.log)"
			grep -E 'error:' "$src/build.log" | head -n 5 | sed 's/^/# /'
			status=1
			continue
		fi
		if grep -E 'warning:|WARNING:|error:' "$src/build.log" | sed 's/^/# /' | grep .; then
			echo "not ok - compat: $m unset builds on $force_kid with no warning"
			status=1
			continue
		fi
		if grep -qw -- "-D$m" "$src/module/.tracking.o.cmd"; then
			echo "not ok - compat: HMPGOV_COMPAT_OFF=$m leaves it unset"
			status=1
			continue
		fi
		off[$m]+=" $force_kid(forced)"
	fi
	if [ -n "${on[$m]:-}" ] && [ -n "${off[$m]:-}" ]; then
		echo "ok - compat: $m built set (${on[$m]# }) and unset (${off[$m]# }), W=1 C=1"
	else
		on_at=${on[$m]:- nowhere}
		off_at=${off[$m]:- nowhere}
		echo "not ok - compat: $m built both set (${on_at# }) and unset (${off_at# })"
		status=1
	fi
done
exit $status
