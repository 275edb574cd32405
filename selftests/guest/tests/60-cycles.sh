# SPDX-License-Identifier: GPL-2.0
# 100 load/unload cycles while processes fork and exit in the background;
# the debug kernel turns any locking, sleeping or memory error into a
# splat, which fails the run on the host.
cycles=${HT_CYCLES:-100}
start_forkers 2
failed=0
i=0
while [ "$i" -lt "$cycles" ]; do
	if ! load >/dev/null || [ ! -r $SYS/cpu0/capacity ] || ! unload >/dev/null; then
		failed=$((failed + 1))
		module_loaded && unload >/dev/null
	fi
	i=$((i + 1))
done
stop_forkers
check "cycles: $cycles load/unload cycles under fork load ($failed failed)" [ "$failed" -eq 0 ]
