#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's kernel images and headers for the matrix into the cache,
# without touching the system's apt state, and record the versions used.
#
# usage: scripts/fetch-kernels.sh [ID ...]     (default: every Debian entry)
#
# For each entry it writes $HMPGOV_KERNELS/ID.env with:
#   KID ARCH KVER KDIR IMAGE CROSS_COMPILE KCC SUITE PKGVER
set -euo pipefail
source "$(dirname "$0")/lib.sh"

# Extract a .deb; for a kernel image only its /boot (the modules of
# Debian's image are not needed to boot an initramfs and take 1 GiB).
extract() { # $1 = deb, $2 = root
	case $(basename "$1") in
	linux-image-*)
		dpkg-deb --fsys-tarfile "$1" | tar -x -C "$2" ./boot ;;
	*)
		dpkg-deb -x "$1" "$2" ;;
	esac
}

# Debian's flavour Makefile includes the common tree by absolute path;
# point it at the extracted copy.
fix_headers() { # $1 = root, $2 = flavour dir name
	local mk=$1/usr/src/$2/Makefile
	sed -i "s|include /usr/src/|include $1/usr/src/|" "$mk"
}

fetch_debian() { # id arch flavour suite
	local id=$1 arch=$2 flavour=$3 suite=$4 re ver hdr kver root img
	SUITE_NAME=$suite
	case $suite in
	bullseye) re='bullseye(-security)?' ;;
	bookworm) re='bookworm(-security|-updates)?' ;;
	*) re=$suite ;;
	esac
	meta=linux-headers-$flavour	# read by fetch_debian_version
	if [ "$suite" = host ]; then
		# The host's own installed headers; fetch the matching image.
		hdr=$(dpkg-query -W -f '${Depends}\n' linux-headers-amd64 | tr ',' '\n' |
			sed 's/^ *//; s/ .*//' | grep '^linux-headers-' | head -n 1)
		[ -n "$hdr" ] || die "linux-headers-amd64 is not installed on the host"
		ver=$(dpkg-query -W -f '${Version}' "$hdr")
		kver=${hdr#linux-headers-}
		root=$HMPGOV_KERNELS/$id-$ver
		if [ ! -f "$root/.done" ]; then
			rm -rf "$root"; mkdir -p "$root"
			extract "$(deb_fetch "linux-image-$kver-unsigned:amd64=$ver")" "$root"
			touch "$root/.done"
		fi
		img=$root/boot/vmlinuz-$kver
		write_env "$id" x86_64 "$kver" "/usr/src/$hdr" "$img" "" "" host "$ver"
		return
	fi
	# The registry does not always serve the newest index entry (seen:
	# bullseye-security's 5.10 pool answers 404), so walk down the versions.
	for ver in $(suite_versions "$meta:$arch" "$re"); do
		if fetch_debian_version "$id" "$arch" "$ver"; then
			return 0
		fi
		log "$id: $ver could not be fetched, trying an older one"
	done
	die "$id: no $meta in $suite could be fetched"
}

fetch_debian_version() { # id arch pkgver
	local id=$1 arch=$2 ver=$3 hdr kver deps common kbuild root img
	hdr=$(meta_target "$meta:$arch" "$ver" '^linux-headers-')
	kver=${hdr#linux-headers-}
	deps=$(papt_cache show "$hdr:$arch=$ver" | awk '/^Depends:/' | sed 's/^Depends: //' |
		tr ',|' '\n\n' | sed 's/^ *//; s/ .*//')
	common=$(printf '%s\n' "$deps" | grep -E '^linux-headers-.*-common(-rt)?$' | head -n 1)
	kbuild=$(printf '%s\n' "$deps" | grep -E '^linux-kbuild-' | head -n 1)
	root=$HMPGOV_KERNELS/$id-$ver
	if [ ! -f "$root/.done" ]; then
		log "fetching $id: $kver ($ver)"
		rm -rf "$root"; mkdir -p "$root"
		local debs=() spec
		for spec in "linux-image-$kver-unsigned:$arch=$ver" "$hdr:$arch=$ver" \
			"$common:all=$ver" "$kbuild:amd64=$ver"; do
			# linux-kbuild is Multi-Arch: foreign: the host's arch runs here.
			debs+=("$( (deb_fetch "$spec") 2>/dev/null)") || return 1
		done
		for spec in "${debs[@]}"; do
			extract "$spec" "$root"
		done
		fix_headers "$root" "$hdr"
		touch "$root/.done"
	fi
	img=$root/boot/vmlinuz-$kver
	[ -f "$img" ] || die "$id: no $img"
	# Debian names the compiler its kernel was built with; bullseye's gcc-10
	# does not exist on Debian 12, whose cross gcc is 12.
	write_env "$id" arm64 "$kver" "$root/usr/src/$hdr" "$img" aarch64-linux-gnu- \
		aarch64-linux-gnu-gcc-12 "$SUITE_NAME" "$ver"
}

write_env() { # id arch kver kdir image cross kcc suite pkgver
	mkdir -p "$HMPGOV_KERNELS"
	cat >"$HMPGOV_KERNELS/$1.env" <<-EOF
	KID=$1
	ARCH=$2
	KVER=$3
	KDIR=$4
	IMAGE=$5
	CROSS_COMPILE=$6
	KCC=$7
	SUITE=$8
	PKGVER=$9
	EOF
	log "$1: $3 ($9)"
}

main() {
	local want=("$@") id arch flavour suite
	apt_private_update
	while read -r id arch flavour suite; do
		[ "$flavour" = own ] && continue
		if [ ${#want[@]} -gt 0 ] && [[ " ${want[*]} " != *" $id "* ]]; then
			continue
		fi
		fetch_debian "$id" "$arch" "$flavour" "$suite"
	done < <(matrix_entries)
}

main "$@"
