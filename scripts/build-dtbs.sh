#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the QEMU machines' device trees from dts/*.dts.
#
# Each dts/NAME.dts names its CPU count ("qemu-smp: N") and includes
# qemu-virt-base.dtsi: the tree QEMU's virt machine generates itself for
# that -smp and memory size, dumped here at build time, so that memory,
# interrupt controller and devices always match the QEMU that boots it.
#
# output: $HMPGOV_BUILD/dtb/NAME.dtb
set -euo pipefail
source "$(dirname "$0")/lib.sh"

out=$HMPGOV_BUILD/dtb
mkdir -p "$out"

machine_smp() { # $1 = dts file
	sed -n 's/^ \* qemu-smp: \([0-9]*\)$/\1/p' "$1"
}

for dts in "$HMPGOV_TOP"/dts/*.dts; do
	name=$(basename "$dts" .dts)
	smp=$(machine_smp "$dts")
	[ -n "$smp" ] || die "$dts: no 'qemu-smp:' line"
	base=$out/$name.base
	mkdir -p "$base"
	qemu-system-aarch64 -machine "virt,dumpdtb=$base/virt.dtb" -cpu "$QEMU_ARM_CPU" \
		-smp "$smp" -m "$QEMU_MEM" -nographic >/dev/null 2>&1 ||
		die "qemu could not dump the virt device tree"
	dtc -q -I dtb -O dts -o "$base/qemu-virt-base.dtsi" "$base/virt.dtb"
	dtc -q -I dts -O dtb -i "$base" -o "$out/$name.dtb" "$dts" ||
		die "$dts: dtc failed"
done
log "device trees: $(cd "$out" && ls ./*.dtb | tr '\n' ' ')"
