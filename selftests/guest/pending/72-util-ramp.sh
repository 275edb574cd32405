# SPDX-License-Identifier: GPL-2.0
# Reaction: idle to always busy crosses 768 (the design bound; above any
# big-task threshold) within 16 ms on a big CPU; a 10 % / 16 ms task
# never reaches the small-task bound 256 in 5 s; asleep, the average
# decays on the half-life within 10 %, also after halflife_ms is changed
# (bad writes to the knob are checked in tests/70-tracking-smoke.sh).
load >/dev/null
big=$(big_cpu)
for hl in 32 64; do
	echo "$hl" >$SYS/halflife_ms
	out=$(utilwatch ramp "$big" 768 "$hl")
	tap_note "halflife $hl: $(echo "$out" | tr '\n' ' ')"
	ramp=$(echo "$out" | sed -n 's/^ramp_ms=//p')
	ratio=$(echo "$out" | sed -n 's/.*decay_ratio=//p')
	if [ "$hl" = 32 ]; then
		check "ramp: idle to busy crosses 768 within 16 ms (${ramp} ms)" \
			awk -v r="$ramp" 'BEGIN { exit !(r >= 0 && r <= 16) }'
	fi
	check "decay: halflife_ms=$hl followed within 10% (ratio $ratio)" \
		awk -v r="$ratio" 'BEGIN { exit !(r != "" && r >= 0.9 && r <= 1.1) }'
done
echo 32 >$SYS/halflife_ms
duty 10 16 5.5 "$big" &
pid=$!
out=$(utilwatch max "$pid" 5)
wait $pid
max=$(echo "$out" | sed -n 's/^max_util=//p')
check "small: 10%/16 ms for 5 s stays under 256 (max $max)" [ "${max:-999}" -ge 0 ] && [ "${max:-999}" -lt 256 ]
unload >/dev/null
