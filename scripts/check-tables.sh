#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Tables written twice, held to each other:
#  - modinfo's text for each tunable states the bounds and default of the
#    table in module/tunables.c: "(min..max unit, default d)";
#  - the hmpgov_place event prints the reasons (trace_events.h) in the
#    order of enum hmpgov_why, with hmpgov_why_names[]'s names.
#
# usage: scripts/check-tables.sh KID   (a kernel of the matrix, built)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
kid=${1:?usage: check-tables.sh KID}
ko=$HMPGOV_BUILD/$kid/hmpgov.ko
[ -f "$ko" ] || die "$kid: build the module first (scripts/build-module.sh $kid)"
# shellcheck disable=SC2016
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
enum = re.search(r"enum tunable_id \{([^}]*)\}", src).group(1)
ids = re.findall(r"\bT_\w+", enum)
if len(rows) != len(ids):
    print("MISMATCH: %d table rows, %d ids" % (len(rows), len(ids))); bad += 1
alias = descs.get("min_interval_ms", "")
if "(0..1000 ms)" not in alias:
    print("MISMATCH: min_interval_ms: '%s'" % alias); bad += 1

# the reasons
hdr = open(top + "/include/hmpgov/placement.h").read()
why_enum = re.findall(r"^\s*(HMPGOV_WHY_\w+),", re.search(r"enum hmpgov_why \{(.*?)\};", hdr, re.S).group(1), re.M)
why_enum = [w for w in why_enum if w != "HMPGOV_NR_WHY"]
pl = open(top + "/module/placement.c").read()
names = dict(re.findall(r"\[(HMPGOV_WHY_\w+)\] = \"(\w+)\"", pl))
tev = open(top + "/include/hmpgov/trace_events.h").read()
listed = re.findall(r"\{ (\d+), \"(\w+)\" \}", tev[tev.index("TRACE_EVENT(hmpgov_place"):tev.index("TRACE_EVENT(hmpgov_pack")])
want = [(str(i), names.get(w, "?")) for i, w in enumerate(why_enum)]
why_rows = [l for l in listed if l[1] not in ("small", "medium", "big")]
if why_rows != want:
    print("MISMATCH: the event's reasons %s, the enum's %s" % (why_rows, want)); bad += 1
else:
    print("ok the event's %d reasons follow enum hmpgov_why" % len(want))
sys.exit(1 if bad else 0)
PY
