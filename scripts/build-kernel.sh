#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the matrix's own kernel: Debian's linux-source-6.12 (the same
# version as the bookworm-backports images), allnoconfig plus the fragment
# scripts/kconfig/own-6.12-arm64.config (UCLAMP_TASK, PREEMPT, cpufreq,
# energy model, cpusets, hotplug, ftrace and the lock/memory debug options).
#
# The build is cached under $HMPGOV_KERNELS/own-6.12-arm64-<hash>, the hash
# covering the source version, the fragment and the compiler. The extracted
# source tree also provides scripts/checkpatch.pl.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

FRAGMENT=$HMPGOV_TOP/scripts/kconfig/own-6.12-arm64.config
CROSS=aarch64-linux-gnu-

source_version() {
	suite_versions linux-source-6.12 bookworm-backports | head -n 1
}

# Extract linux-source once per version; prints the tree's path.
source_tree() { # $1 = package version
	local dir=$HMPGOV_CACHE/src/linux-source-6.12-$1 deb tmp
	if [ ! -f "$dir/.done" ]; then
		log "extracting linux-source-6.12 $1"
		deb=$(deb_fetch "linux-source-6.12:all=$1")
		rm -rf "$dir"; tmp=$dir.tmp; rm -rf "$tmp"; mkdir -p "$tmp"
		dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$tmp" ./usr/src
		tar -xaf "$tmp"/usr/src/linux-source-6.12.tar.* -C "$tmp"
		mv "$tmp/linux-source-6.12" "$dir"
		rm -rf "$tmp"
		touch "$dir/.done"
	fi
	printf '%s\n' "$dir"
}

# Every option the fragment sets must survive olddefconfig, or the kernel
# silently lacks what the tests rely on.
check_config() { # $1 = .config
	local line opt val bad=0
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*}; val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$1" && { log "config: $opt is set, wanted n"; bad=1; }
		else
			grep -qx "$opt=$val" "$1" || { log "config: $opt is not $val"; bad=1; }
		fi
	done <"$FRAGMENT"
	return $bad
}

main() {
	local ver src hash out jobs
	apt_private_update
	ver=$(source_version)
	[ -n "$ver" ] || die "no linux-source-6.12 in bookworm-backports"
	src=$(source_tree "$ver")
	hash=$( { echo "$ver"; cat "$FRAGMENT"; "${CROSS}gcc" --version | head -n 1; } |
		sha256sum | cut -c1-12)
	out=$HMPGOV_KERNELS/own-6.12-arm64-$hash
	if [ ! -f "$out/.done" ]; then
		log "building own kernel $ver (config $hash); this takes a few minutes"
		rm -rf "$out"; mkdir -p "$out"
		jobs=$(( $(nproc) + 1 ))
		make -s -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=$CROSS allnoconfig >/dev/null
		KCONFIG_CONFIG=$out/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
			"$out/.config" "$FRAGMENT" >"$out/merge.log"
		make -s -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=$CROSS olddefconfig
		check_config "$out/.config" || die "own kernel config lacks options (see above)"
		make -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=$CROSS -j"$jobs" \
			Image modules >"$out/build.log" 2>&1 ||
			{ tail -n 30 "$out/build.log" >&2; die "own kernel build failed"; }
		touch "$out/.done"
	fi
	mkdir -p "$HMPGOV_KERNELS"
	cat >"$HMPGOV_KERNELS/own-6.12-arm64.env" <<-EOF
	KID=own-6.12-arm64
	ARCH=arm64
	KVER=$(cat "$out/include/config/kernel.release")
	KDIR=$out
	IMAGE=$out/arch/arm64/boot/Image
	CROSS_COMPILE=$CROSS
	KCC=${CROSS}gcc
	SUITE=own
	PKGVER="linux-source-6.12 $ver, config $hash"
	SRCDIR=$src
	EOF
	log "own-6.12-arm64: $(cat "$out/include/config/kernel.release") (config $hash)"
}

main "$@"
