#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the matrix's own kernels from Debian's linux-source-6.12 (the same
# version as the bookworm-backports images), allnoconfig plus fragments:
#   own-6.12-arm64        scripts/kconfig/own-6.12-arm64.config: UCLAMP_TASK,
#                         PREEMPT, cpufreq + schedutil + energy model,
#                         cpusets, hotplug, ftrace
#   own-6.12-debug-arm64  the same plus scripts/kconfig/debug.config: lockdep,
#                         atomic-sleep checks, kmemleak, KASAN, and kprobes (the view)
#
# usage: scripts/build-kernel.sh [KID ...]   (default: both)
# Each build is cached under $HMPGOV_KERNELS/KID-<hash>, the hash covering
# the source version, the fragments and the compiler. The extracted source
# tree also provides scripts/checkpatch.pl.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

CROSS=aarch64-linux-gnu-

fragments() { # $1 = kernel id
	local dir=$HMPGOV_TOP/scripts/kconfig
	case $1 in
	own-6.12-arm64) echo "$dir/own-6.12-arm64.config" ;;
	own-6.12-debug-arm64) echo "$dir/own-6.12-arm64.config $dir/debug.config" ;;
	*) die "not an own kernel: $1" ;;
	esac
}

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
check_config() { # $1 = .config, then the fragments
	local cfg=$1 line opt val bad=0
	shift
	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*}; val=${line#*=}
		if [ "$val" = n ]; then
			grep -q "^$opt=" "$cfg" && { log "config: $opt is set, wanted n"; bad=1; }
		else
			grep -qx "$opt=$val" "$cfg" || { log "config: $opt is not $val"; bad=1; }
		fi
	done < <(cat "$@")
	return $bad
}

build_one() { # $1 = kernel id, $2 = source version, $3 = source tree
	local kid=$1 ver=$2 src=$3 hash out jobs frags
	read -r -a frags <<<"$(fragments "$kid")"
	hash=$( { echo "$ver"; cat "${frags[@]}"; "${CROSS}gcc" --version | head -n 1; } |
		sha256sum | cut -c1-12)
	out=$HMPGOV_KERNELS/$kid-$hash
	if [ ! -f "$out/.done" ]; then
		log "building $kid $ver (config $hash); this takes a few minutes"
		rm -rf "$out"; mkdir -p "$out"
		jobs=$(( $(nproc) + 1 ))
		make -s -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=$CROSS allnoconfig >/dev/null
		KCONFIG_CONFIG=$out/.config "$src/scripts/kconfig/merge_config.sh" -m -O "$out" \
			"$out/.config" "${frags[@]}" >"$out/merge.log"
		make -s -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=$CROSS olddefconfig
		check_config "$out/.config" "${frags[@]}" ||
			die "$kid config lacks options (see above)"
		make -C "$src" O="$out" ARCH=arm64 CROSS_COMPILE=$CROSS -j"$jobs" \
			Image modules >"$out/build.log" 2>&1 ||
			{ tail -n 30 "$out/build.log" >&2; die "$kid build failed"; }
		touch "$out/.done"
	fi
	mkdir -p "$HMPGOV_KERNELS"
	cat >"$HMPGOV_KERNELS/$kid.env" <<-EOF
	KID=$kid
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
	log "$kid: $(cat "$out/include/config/kernel.release") (config $hash)"
}

main() {
	local ver src kid
	apt_private_update
	ver=$(source_version)
	[ -n "$ver" ] || die "no linux-source-6.12 in bookworm-backports"
	src=$(source_tree "$ver")
	[ $# -gt 0 ] || set -- own-6.12-arm64 own-6.12-debug-arm64
	for kid in "$@"; do
		build_one "$kid" "$ver" "$src"
	done
}

main "$@"
