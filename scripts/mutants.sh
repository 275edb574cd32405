#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Mutation check of the pure C policy: each mutant below changes one rule
# of module/ (or its header) in a copy of the sources; the host unit tests
# built against that copy must fail. A mutant that lives means no test
# holds that rule. A mutant whose text is no longer found exactly once, or
# that does not build, is a failure too: the list must follow the code.
#
# Prints TAP lines ("ok - mutant: ..." when the tests kill it); exits 1 on
# any failure. Run by `make check` after the unit tests.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

work=$(mktemp -d) || { echo "not ok - mutants: a temporary folder"; exit 1; }
trap 'rm -rf "$work"' EXIT
status=0

# run_tests DIR: build every unit test against DIR's sources (no
# sanitizers: only the verdict counts) and run it, 60 s at most; 0 if
# all pass, 1 if one fails (a failed check, a crash or the time limit:
# each is the mutant caught), 2 if one does not build.
run_tests() {
	local dir=$1 t bin srcs=() f rc=0
	for f in "${HMPGOV_PURE[@]}"; do
		srcs+=("$dir/module/$f.c")
	done
	for t in "$dir"/selftests/unit/test_*.c; do
		bin=$dir/$(basename "$t" .c)
		gcc -std=gnu11 -O1 -w -I"$dir/include" -o "$bin" "$t" "${srcs[@]}" -lm \
			>"$bin.log" 2>&1 || return 2
		timeout 60 "$bin" >"$bin.out" 2>&1 || rc=1
	done
	return $rc
}

# fresh: a copy of the sources the unit tests build from.
fresh() {
	rm -rf "$work/src"
	mkdir -p "$work/src/selftests"
	cp -r "$HMPGOV_TOP/module" "$HMPGOV_TOP/include" "$work/src/"
	cp -r "$HMPGOV_TOP/selftests/unit" "$work/src/selftests/"
}

fresh
if run_tests "$work/src"; then
	echo "ok - mutants: the unmutated sources pass the unit tests"
else
	echo "not ok - mutants: the unmutated sources pass the unit tests"
	exit 1
fi

# mutant FILE FROM TO WHAT: replace the one occurrence of FROM in FILE
# (relative to the top) by TO; the unit tests must then fail.
mutant() {
	local file=$1 from=$2 to=$3 what=$4 text rest n
	fresh
	text=$(cat "$work/src/$file"; echo x)
	text=${text%x}
	rest=${text#*"$from"}
	n=0
	[ "$rest" != "$text" ] && n=1 && [[ $rest == *"$from"* ]] && n=2
	if [ "$n" -ne 1 ]; then
		echo "not ok - mutant: $what (its text is found $n times in $file)"
		status=1
		return
	fi
	printf '%s' "${text/"$from"/"$to"}" >"$work/src/$file"
	run_tests "$work/src"
	case $? in
	0) echo "not ok - mutant: $what (lives: no unit test fails)"; status=1 ;;
	1) echo "ok - mutant: $what (killed)" ;;
	*) echo "not ok - mutant: $what (does not build)"; status=1 ;;
	esac
}

tab=$'\t'
nl=$'\n'

# classify.c: the class rules
mutant module/classify.c "${nl}${tab}if (up > down)${nl}${tab}${tab}down = up;" "" \
	"classify: a down-move no longer stops where util holds the task up"
mutant module/classify.c "(to < cur && now - since < HMPGOV_SETTLE_NS)" "(false)" \
	"classify: a down-move no longer waits for the settle time"
mutant module/classify.c "now - since < hold_ns ||" "" \
	"classify: a class change no longer waits for class_hold_ms"
mutant module/classify.c "util >= t->big_up || saturated" "util >= t->big_up" \
	"classify: a task filling its CPU (saturated) is no longer big"
mutant include/hmpgov/classify.h "#define HMPGOV_SATURATED_AVG	512" "#define HMPGOV_SATURATED_AVG	0" \
	"classify: one burst filling a little CPU makes a small task big"
mutant module/classify.c "avg < t->small_down ? HMPGOV_CLASS_SMALL" \
	"avg <= t->small_down ? HMPGOV_CLASS_SMALL" \
	"classify: small_down is a strict bound no more"

# placement.c and placement.h: rules 1 and 3, rate limits, exclusion
mutant include/hmpgov/placement.h "(100ULL * 1000 * 1000)" "(50ULL * 1000 * 1000)" \
	"placement: the packing hold is 50 ms instead of 100 ms"
mutant module/placement.c "sum * 4 < weight(littles) * per_cpu * 3" \
	"sum < weight(littles) * per_cpu" \
	"placement: packing overflow ends without its 3/4 hysteresis"
mutant module/placement.c "return ra > rb;" "return ra < rb;" \
	"placement: big tasks are placed lightest first"
mutant module/placement.c "	if (ca != cb)
		return ca > cb;" "	if (ca != cb)
		return ca < cb;" \
	"placement: on equal demand the task on the smaller CPU goes first"
mutant module/placement.c "for (c = (int)m->nr_clusters - 1; c >= 1; c--) {" \
	"for (c = 1; c < (int)m->nr_clusters; c++) {" \
	"placement: big tasks fill the smallest cluster above the littles first"
mutant module/placement.c "return d * 16 + d * (c > 0 ? c : 0);" "return d * 16;" \
	"placement: a task on a big CPU gives it up to one that reads a little more"
mutant module/placement.c "			p->want = p->base & ~full;" "			p->want = p->base;" \
	"placement: a big task with no room may run on the full big CPUs"
mutant module/placement.c "	if (weight(pack->cpus) > 1)
		pack_small(t, n, pack);" "" \
	"placement: small tasks may move between the packing CPUs"
mutant module/placement.c "pack->cpus &= ~HMPGOV_CPU_BIT(pack->joined[--nr]);" \
	"{ pack->cpus &= ~HMPGOV_CPU_BIT(pack->joined[0]); nr--; }" \
	"placement: the first packing CPU leaves first, not the last to join"
mutant module/placement.c "load[cpu] && (u64)load[cpu] + t[i].avg > pack->per_cpu" "false" \
	"placement: a packing CPU keeps more small tasks than it takes"
mutant module/placement.c "homeless > weight(m->online & ~full)" "false" \
	"placement: more big tasks with no room than CPUs left are crowded there"
mutant module/placement.c "if (!room[c] && !narrow[c])" "if (!room[c])" \
	"placement: a big cluster counts as full when tasks bound narrower share its CPUs"
mutant module/placement.c "room[c]--;" "" \
	"placement: a big cluster takes more big tasks than it has CPUs"
mutant module/placement.c "now - t[i].moved_at < pol->move_interval_ns" \
	"now - t[i].moved_at <= pol->move_interval_ns" \
	"placement: a task moved exactly move_interval_ms ago still waits"
mutant module/placement.c "if (pol->moves_per_pass && moves >= pol->moves_per_pass)" \
	"if (pol->moves_per_pass && moves > pol->moves_per_pass)" \
	"placement: a pass makes one move more than moves_per_pass"
mutant module/placement.c "k->kernel || k->exiting || k->realtime" \
	"k->kernel || k->exiting" \
	"excluded: real-time tasks are steered"
mutant module/placement.c "if (!(k->base & (k->base - 1)))" "if (!k->base)" \
	"excluded: a task the user allowed one CPU is steered"
mutant module/placement.c "if (!*c && (!*names || *names == ','))" "if (!*c)" \
	"excluded: a name that only begins an exclude_comm entry matches it"
mutant module/placement.c "*c && *c != ',' && *c == *names" "*c && *c == *names" \
	"excluded: a name with a comma in it matches across entries"
mutant module/placement.c "if (*s == ',' && s[1] == ',')" "if (false)" \
	"exclude_comm: an empty entry (,,) is taken"

exit $status
