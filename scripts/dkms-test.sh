#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# dkms add / build / install / remove against the host's installed
# linux-headers-amd64, under a version of its own ("0.0.0-selftest") so
# that a real installation of hmpgov is left alone. Prints TAP lines.
set -uo pipefail
source "$(dirname "$0")/lib.sh"

ver=0.0.0-selftest
src=/usr/src/hmpgov-$ver
hdr=$(dpkg-query -W -f '${Depends}\n' linux-headers-amd64 2>/dev/null | tr ',' '\n' |
	sed 's/^ *//; s/ .*//' | grep '^linux-headers-' | head -n 1)
kver=${hdr#linux-headers-}
logf=$HMPGOV_BUILD/logs/dkms.log
mkdir -p "$(dirname "$logf")"
: >"$logf"

t() { # name, command...
	local name=$1
	shift
	if "$@" >>"$logf" 2>&1; then echo "ok - dkms: $name"; else echo "not ok - dkms: $name (see $logf)"; fi
}

if [ -z "$kver" ] || [ ! -d "/lib/modules/$kver/build" ]; then
	echo "not ok - dkms: host has linux-headers-amd64 installed"
	exit 1
fi
cleanup() {
	dkms remove -m hmpgov -v "$ver" --all >/dev/null 2>&1
	rm -rf "$src"
}
cleanup
"$HMPGOV_TOP/scripts/dkms-source.sh" "$src" "$ver"
t "add" dkms add -m hmpgov -v "$ver"
t "build for $kver" dkms build -m hmpgov -v "$ver" -k "$kver"
t "install for $kver" dkms install -m hmpgov -v "$ver" -k "$kver"
ko=$(find "/lib/modules/$kver" -name 'hmpgov.ko*' 2>/dev/null | head -n 1)
t "the .ko lands in /lib/modules/$kver (${ko:-none})" test -n "$ko"
t "the installed .ko is for $kver" sh -c "modinfo -F vermagic '$ko' | grep -q '^$kver '"
t "remove" dkms remove -m hmpgov -v "$ver" --all
t "remove takes the .ko away" sh -c "! find /lib/modules/$kver -name 'hmpgov.ko*' | grep -q ."
cleanup
