#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# modinfo's text for each tunable states the bounds and default of the
# table in module/tunables.c: "(min..max unit, default d)".
#
# usage: scripts/check-tunables.sh KID   (a kernel of the matrix, built)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
kid=${1:?usage: check-tunables.sh KID}
ko=$HMPGOV_BUILD/$kid/hmpgov.ko
[ -f "$ko" ] || die "$kid: build the module first (scripts/build-module.sh $kid)"
modinfo -F parm "$ko" >"$HMPGOV_BUILD/$kid/parm.txt"
python3 - "$HMPGOV_TOP" "$HMPGOV_BUILD/$kid/parm.txt" <<'PY'
import re, sys, glob
top, parm = sys.argv[1], sys.argv[2]
macros = {}
for h in glob.glob(top + "/include/hmpgov/*.h"):
    for m in re.finditer(r"^#define\s+(\w+)\s+(\d+)U?\b", open(h).read(), re.M):
        macros[m.group(1)] = m.group(2)
src = open(top + "/module/tunables.c").read()
rows = re.findall(r'\[T_\w+\] = \{ "(\w+)", "([^"]+)", (\w+), (\w+), (\w+),', src)
descs = dict(l.split(":", 1) for l in open(parm).read().splitlines() if ":" in l)
bad = 0
for name, unit, lo, hi, d in rows:
    d = macros.get(d, d)
    want = "(%s..%s %s, default %s)" % (lo, hi, unit, d)
    got = descs.get(name, "")
    ok = want in got
    bad += not ok
    print("%s %s: %s" % ("ok" if ok else "MISMATCH", name, want if ok else "modinfo says '%s', table %s" % (got, want)))
if len(rows) < 9:
    print("only %d table rows found" % len(rows)); bad += 1
sys.exit(1 if bad else 0)
PY
