#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Assemble the test initramfs for one kernel of the matrix: Debian's static
# busybox for the guest's architecture, hmpgov.ko built for that kernel,
# and the guest suite (selftests/guest).
#
# usage: scripts/build-initramfs.sh KID
# output: $HMPGOV_BUILD/KID/initramfs.cpio.gz
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kid=${1:?usage: build-initramfs.sh KID}
# shellcheck disable=SC1090
source "$HMPGOV_KERNELS/$kid.env"
case $ARCH in
arm64) debarch=arm64 ;;
x86_64) debarch=amd64 ;;
*) die "unknown arch $ARCH" ;;
esac

out=$HMPGOV_BUILD/$kid
root=$out/initramfs
[ -f "$out/hmpgov.ko" ] || die "$kid: build the module first (scripts/build-module.sh $kid)"

apt_private_update
bb=$HMPGOV_CACHE/busybox-$debarch
if [ ! -x "$bb/bin/busybox" ]; then
	rm -rf "$bb"; mkdir -p "$bb"
	dpkg-deb -x "$(deb_fetch "busybox-static:$debarch=$(suite_versions "busybox-static:$debarch" 'bookworm(-security|-updates)?' | head -n 1)")" "$bb"
fi

rm -rf "$root"
mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,run,hmpgov/bin}
cp "$bb/bin/busybox" "$root/bin/busybox"
cp "$HMPGOV_TOP/selftests/guest/init" "$root/init"
cp -r "$HMPGOV_TOP/selftests/guest/lib.sh" "$HMPGOV_TOP/selftests/guest/run-suite.sh" \
	"$HMPGOV_TOP/selftests/guest/demo.sh" \
	"$HMPGOV_TOP/selftests/guest/tests" "$HMPGOV_TOP/selftests/guest/bench" "$root/hmpgov/"
cp "$out/hmpgov.ko" "$root/hmpgov/"
cp "$out"/kmod/*.ko "$root/hmpgov/"
# The guest's test programs (selftests/progs), static for its arch.
case $ARCH in
arm64) cc=aarch64-linux-gnu-gcc ;;
*) cc=gcc ;;
esac
for prog in "$HMPGOV_TOP"/selftests/progs/*.c; do
	"$cc" -static -O2 -Wall -Wextra -Werror -pthread -o "$root/hmpgov/bin/$(basename "$prog" .c)" "$prog" -lm ||
		die "building $prog failed"
done
chmod +x "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$out/initramfs.cpio.gz"
