#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Assemble the test initramfs for one kernel of the matrix: Debian's static
# busybox for the guest's architecture, hmpgov.ko built for that kernel,
# the guest suite (selftests/guest), and third-party workloads from Debian
# (bookworm) with the shared libraries they need: hackbench and cyclictest
# (rt-tests) for scripts/bench-thirdparty.sh, rt-app for the placement
# test's rt-app scenario (each left out, with a note, where Debian has no
# package for the arch; the tests that use them check for them).
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

# Package $1 (version $2) and the packages its Depends names, for the
# guest's arch, newest in bookworm, extracted once under the cache keyed by
# all their versions; sets TOOL_ROOT. python3 serves only the packages'
# python scripts (rt-tests' hwlatdetect, rt-app's tune_json.py): skipped.
tool_root() {
	local pkg=$1 ver=$2 deps dep dver key tmp deb
	local -A dvers=()
	deb=$(deb_fetch "$pkg:$debarch=$ver")
	deps=$(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/^ *//; s/[ :(].*//' |
		grep -v -x -e python3 -e '' || true)
	key=$ver
	for dep in $deps; do
		dver=$(suite_versions "$dep:$debarch" 'bookworm(-security|-updates)?' | head -n 1)
		[ -n "$dver" ] || die "$pkg: no $dep:$debarch in bookworm"
		dvers[$dep]=$dver
		key="${key}_$dep-$dver"
	done
	TOOL_ROOT=$HMPGOV_CACHE/$pkg-$debarch/$key
	[ -f "$TOOL_ROOT/.complete" ] && return 0
	tmp=$TOOL_ROOT.tmp.$$
	rm -rf "$tmp"
	mkdir -p "$tmp"
	dpkg-deb -x "$deb" "$tmp"
	for dep in $deps; do
		dpkg-deb -x "$(deb_fetch "$dep:$debarch=${dvers[$dep]}")" "$tmp"
	done
	touch "$tmp/.complete"
	rm -rf "$TOOL_ROOT"
	mv "$tmp" "$TOOL_ROOT"
}

elf_needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

# add_elf SRCROOT BINARY...: copy the binaries into the initramfs's
# /usr/bin with their ELF interpreter and every shared library they need
# (DT_NEEDED, followed through the libraries) into /lib/TRIPLET, and
# nothing else of the packages.
add_elf() {
	local src=$1 first=$2 triplet lib interp name f
	local -a todo=()
	local -A seen=()
	shift
	case $debarch in
	arm64) triplet=aarch64-linux-gnu ;;
	amd64) triplet=x86_64-linux-gnu ;;
	esac
	mkdir -p "$root/usr/bin" "$root/lib/$triplet"
	for f in "$@"; do
		cp "$src/usr/bin/$f" "$root/usr/bin/$f"
		mapfile -t -O "${#todo[@]}" todo < <(elf_needed "$src/usr/bin/$f")
	done
	while [ "${#todo[@]}" -gt 0 ]; do
		name=${todo[0]}
		todo=("${todo[@]:1}")
		[ -n "${seen[$name]:-}" ] && continue
		seen[$name]=1
		lib=
		for f in "$src/lib/$triplet/$name" "$src/usr/lib/$triplet/$name"; do
			if [ -e "$f" ]; then lib=$f; break; fi
		done
		[ -n "$lib" ] || die "$first: $name is in none of the extracted packages"
		cp -L "$lib" "$root/lib/$triplet/$name"
		mapfile -t -O "${#todo[@]}" todo < <(elf_needed "$lib")
	done
	interp=$(readelf -l "$root/usr/bin/$first" |
		sed -n 's/.*Requesting program interpreter: \(.*\)\]/\1/p')
	[ -n "$interp" ] || die "$first names no ELF interpreter"
	[ -e "$root/lib/$triplet/${interp##*/}" ] || die "$first: interpreter $interp not copied"
	if [ "$interp" != "/lib/$triplet/${interp##*/}" ]; then
		mkdir -p "$root$(dirname "$interp")"
		ln -sf "/lib/$triplet/${interp##*/}" "$root$interp"
	fi
}

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
# add_package PKG BINARY...: the package's binaries, where Debian has it
add_package() {
	local pkg=$1 ver
	shift
	ver=$(suite_versions "$pkg:$debarch" 'bookworm(-security|-updates)?' | head -n 1)
	if [ -z "$ver" ]; then
		log "$kid: no $pkg for $debarch in bookworm: $* left out"
		return 0
	fi
	tool_root "$pkg" "$ver"
	add_elf "$TOOL_ROOT" "$@"
}
add_package rt-tests hackbench cyclictest
add_package rt-app rt-app
chmod +x "$root/init"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) >"$out/initramfs.cpio.gz"
