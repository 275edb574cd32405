#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot one kernel of the matrix on one QEMU machine, run the guest suite
# inside and print its results as "@@TAP ..." lines. The whole console log
# is kept; any kernel splat in it (WARNING, BUG, Oops, lockdep, KASAN,
# sleeping in atomic context, kmemleak) fails the run, named.
#
# usage: scripts/run-qemu.sh KID MACHINE [HT_VAR=value ...]
#   MACHINE: a dts/ name for arm64 kernels; "pc" for x86_64 (-smp 2)
#   HT_TESTS=10-load,20-topology   run only these guest tests
#   HT_TIMEOUT=seconds             wall-clock limit (default 600)
#   HT_PART=name                   a plan line's part of the suite, where one
#                                  kernel and machine run in several boots:
#                                  names the log (KID-MACHINE-name.log)
#   HT_ICOUNT=0                    real-time emulation (one host thread per
#                                  vCPU) instead of the default deterministic
#                                  guest time (QEMU -icount, the vCPUs round
#                                  robin on one host thread, idle time
#                                  skipped); for benchmarks that need the
#                                  vCPUs truly parallel (bench-speed). The x86
#                                  guest runs in real time on one thread.
#   HT_SHIFT=N                     -icount shift: 2^N ns of guest time per
#                                  instruction (default 2, or
#                                  $HMPGOV_ICOUNT_SHIFT): a vCPU running alone
#                                  executes 250 M instructions per guest
#                                  second, about what one TCG thread executes
#                                  per real second here, so the guest is as
#                                  fast as in real-time emulation; shift 0
#                                  (1 ns) makes it 4x faster in guest time and
#                                  a busy test 4x longer in wall time
# environment (optional, for benchmarks that drive QEMU from the host):
#   HMPGOV_QMP=PATH          a QMP server on the unix socket PATH
#   HMPGOV_QMP_STOPPED=1     with it, the guest starts stopped (-S) and runs
#                            when a QMP client sends "cont"
# exit: 0 when the suite ran to its end, every test passed and the log is
#       clean; 1 otherwise. The log is $HMPGOV_BUILD/logs/KID-MACHINE.log
#       (KID-MACHINE-PART.log with HT_PART).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kid=${1:?usage: run-qemu.sh KID MACHINE [HT_VAR=value ...]}
machine=${2:?usage: run-qemu.sh KID MACHINE [HT_VAR=value ...]}
shift 2
timeout_s=600
icount=
part=
shift_ns=${HMPGOV_ICOUNT_SHIFT:-2}
extra=()
for kv in "$@"; do
	case $kv in
	HT_TIMEOUT=*) timeout_s=${kv#HT_TIMEOUT=} ;;
	HT_ICOUNT=0) icount=0 ;;
	HT_ICOUNT=1) icount=1 ;;
	HT_ICOUNT=*) die "HT_ICOUNT is 0 or 1: $kv" ;;
	HT_SHIFT=*) shift_ns=${kv#HT_SHIFT=} ;;
	HT_PART=*) part=-${kv#HT_PART=} ;;
	HT_*=*) extra+=("$kv") ;;
	*) die "not an HT_ variable: $kv" ;;
	esac
done
# shellcheck disable=SC1090
source "$HMPGOV_KERNELS/$kid.env"
# The x86 guest already runs on one emulator thread (below) and runs no
# timing test: it stays in real time unless asked.
[ -n "$icount" ] || { [ "$ARCH" = x86_64 ] && icount=0 || icount=1; }
[ "$icount" = 0 ] || [ "$ARCH" != x86_64 ] ||
	die "the x86 guest runs in real time (the host's QEMU 7.2 starves vCPUs under -icount)"
[[ $shift_ns =~ ^([0-9]|10)$ ]] || die "HT_SHIFT (HMPGOV_ICOUNT_SHIFT) is 0..10: $shift_ns"
logdir=$HMPGOV_BUILD/logs
mkdir -p "$logdir"
log_file=$logdir/$kid-$machine$part.log
initrd=$HMPGOV_BUILD/$kid/initramfs.cpio.gz
[ -f "$initrd" ] || die "$kid: no initramfs (scripts/build-initramfs.sh $kid)"

cmdline="panic=-1 HT_MACHINE=$machine HT_KERNEL=$kid HT_ICOUNT=$icount ${extra[*]}"
case $ARCH in
arm64)
	dtb=$HMPGOV_BUILD/dtb/$machine.dtb
	[ -f "$dtb" ] || die "no device tree $dtb (scripts/build-dtbs.sh)"
	smp=$(sed -n 's/^ \* qemu-smp: \([0-9]*\)$/\1/p' "$HMPGOV_TOP/dts/$machine.dts")
	qemu=(qemu-system-aarch64)
	if [ "$icount" = 1 ]; then
		[ -f "$HMPGOV_CACHE/qemu.env" ] || die "no QEMU for deterministic time (scripts/fetch-qemu.sh)"
		# shellcheck disable=SC1091
		source "$HMPGOV_CACHE/qemu.env"
		# its binary only: the data (ROMs) are the host QEMU's
		qemu=("$QEMU_ICOUNT_AARCH64" -L /usr/share/qemu -nic none)
	fi
	qemu+=(-machine virt -cpu "$QEMU_ARM_CPU" -smp "$smp"
		-dtb "$dtb" -append "console=ttyAMA0 $cmdline")
	;;
x86_64)
	[ "$machine" = pc ] || die "x86_64 kernels boot the 'pc' machine"
	# One TCG thread for both vCPUs: with thread=multi, an x86 guest
	# that patches a static key (each tracepoint attach and detach) can
	# keep running a stale translation of the int3 it briefly held, and
	# the kernel rewinds to it forever (seen as a soft lockup at the
	# tracepoint site in delayed_put_task_struct).
	qemu=(qemu-system-x86_64 -machine pc -cpu max -smp 2 -accel tcg,thread=single
		-append "console=ttyS0 $cmdline")
	;;
esac
if [ "$icount" = 1 ]; then
	# Guest time from executed instructions: a repeated run gives the
	# same figures, and the host's load cannot stretch a guest's timing.
	# -icount needs the single TCG thread (x86 has it already).
	[ "$ARCH" = x86_64 ] || qemu+=(-accel tcg,thread=single)
	qemu+=(-icount shift=$shift_ns,sleep=off)
else
	[ "$ARCH" = x86_64 ] || qemu+=(-accel tcg,thread=multi)
fi
qemu+=(-m "$QEMU_MEM" -nographic -no-reboot -monitor none
	-kernel "$IMAGE" -initrd "$initrd")
if [ -n "${HMPGOV_QMP:-}" ]; then
	qemu+=(-qmp "unix:$HMPGOV_QMP,server=on,wait=off")
	if [ "${HMPGOV_QMP_STOPPED:-0}" = 1 ]; then qemu+=(-S); fi
fi

start=$(date +%s)
set +e
timeout --foreground -k 10 "$timeout_s" "${qemu[@]}" </dev/null >"$log_file" 2>&1
rc=$?
set -e
elapsed=$(( $(date +%s) - start ))
tr -d '\r' <"$log_file" >"$log_file.tmp" && mv "$log_file.tmp" "$log_file"

status=0
tap=$(grep -a '^@@TAP ' "$log_file" | sed 's/^@@TAP //' || true)
[ -n "$tap" ] && printf '%s\n' "$tap"
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "not ok - boot finished within ${timeout_s}s (timed out)"
	echo "# the console's last lines:"
	grep -av '^@@' "$log_file" | tail -n 40 | sed 's/^/#   /'
	status=1
elif ! grep -aq '^@@END' "$log_file"; then
	echo "not ok - the suite ran to its end (qemu exit $rc; see $log_file)"
	status=1
else
	echo "ok - the suite ran to its end (${elapsed}s)"
fi
splats=$("$HMPGOV_TOP/scripts/find-splats.sh" "$log_file" || true)
if [ -n "$splats" ]; then
	echo "not ok - kernel log is clean: $(echo "$splats" | head -n 3 | tr '\n' ';')"
	status=1
else
	echo "ok - kernel log is clean (no WARNING/BUG/Oops/lockdep/KASAN/kmemleak)"
fi
if printf '%s\n' "$tap" | grep -q '^not ok'; then
	status=1
fi
exit $status
