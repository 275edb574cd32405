#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build and run the host unit tests (selftests/unit/test_X.c against the
# pure C parts of module/, the files that include only hmpgov/pure.h and
# other pure headers) with ASan and UBSan. Prints TAP lines; exits 1 if
# any test fails or does not build.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
status=0
mkdir -p "$HMPGOV_BUILD/unit"
pure=()
for f in "${HMPGOV_PURE[@]}"; do
	pure+=("$HMPGOV_TOP/module/$f.c")
done
for t in "$HMPGOV_TOP"/selftests/unit/test_*.c; do
	name=$(basename "$t" .c)
	bin=$HMPGOV_BUILD/unit/$name
	if ! gcc -std=gnu11 -Wall -Wextra -Werror -g -O1 -fsanitize=address,undefined \
		-fno-sanitize-recover=all -I"$HMPGOV_TOP/include" -o "$bin" "$t" \
		"${pure[@]}" -lm >"$bin.log" 2>&1; then
		echo "not ok - $name: builds"
		sed 's/^/# /' "$bin.log"
		status=1
		continue
	fi
	"$bin" 2>&1 | sed -E "s/^((not )?ok [0-9]+ - )/\1$name: /"
	[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "not ok - $name: exits 0"; status=1; }
done
exit $status
