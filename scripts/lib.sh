# SPDX-License-Identifier: GPL-2.0
# Shared shell helpers for hmpgov's scripts. Source it; do not run it.
#
# Everything downloaded or built lives under $HMPGOV_CACHE (outside the
# clone), keyed by version, so a warm cache makes re-runs fast and a cold
# cache still works.

HMPGOV_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HMPGOV_CACHE=${HMPGOV_CACHE:-/var/cache/hmpgov}
HMPGOV_APT=$HMPGOV_CACHE/apt
HMPGOV_DEBS=$HMPGOV_CACHE/debs
HMPGOV_KERNELS=$HMPGOV_CACHE/kernels
HMPGOV_BUILD=${HMPGOV_BUILD:-$HMPGOV_TOP/build}
export HMPGOV_TOP HMPGOV_CACHE HMPGOV_BUILD
# The pure C files of module/ (built into the host unit tests too).
HMPGOV_PURE=(capacity_list clamp_rule classify placement topology_calc util_signal)

log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The registry URIs come from the system's own apt configuration: the
# first "URIs:" of the deb822 entry whose suites are the main archive, and
# the one whose suites are the security archive. Host names are never
# written into our files.
apt_uri() { # $1 = main | security
	local f want=$1 uri suites
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v want="$want" '
			/^URIs:/ { uri = $2 }
			/^Suites:/ {
				sec = ($0 ~ /-security/)
				if ((want == "security") == sec && uri != "") { print uri; exit }
			}
			/^$/ { uri = "" }' "$f"
	done | head -n 1
	# One-line sources.list format as a fallback.
	if [ -r /etc/apt/sources.list ]; then
		awk -v want="$want" '$1 == "deb" {
			for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { uri = $i; suite = $(i + 1); break }
			sec = (suite ~ /-security/)
			if ((want == "security") == sec) { print uri; exit }
		}' /etc/apt/sources.list
	fi
}

# Private apt state: never touches the system's lists, status or sources.
apt_private_opts() {
	printf '%s ' -o "Dir::State=$HMPGOV_APT" -o "Dir::State::Lists=$HMPGOV_APT/lists" \
		-o Dir::State::status=/dev/null \
		-o "Dir::Etc::SourceList=$HMPGOV_APT/sources.list" \
		-o Dir::Etc::SourceParts=/nonexistent \
		-o "Dir::Cache=$HMPGOV_APT/cache" \
		-o APT::Architectures::=arm64 -o APT::Architectures::=amd64 \
		-o APT::Architecture=amd64 -o Debug::NoLocking=1 \
		-o Acquire::Retries=3 -o APT::Sandbox::User=root
}

papt() { # apt-get with the private state
	# shellcheck disable=SC2046
	apt-get $(apt_private_opts) "$@"
}

papt_cache() {
	# shellcheck disable=SC2046
	apt-cache $(apt_private_opts) "$@"
}

apt_private_update() {
	local stamp=$HMPGOV_APT/updated main sec key
	mkdir -p "$HMPGOV_APT/lists/partial" "$HMPGOV_APT/cache/archives/partial"
	# Refresh at most once a day: kernel ABI numbers move slowly.
	if [ -f "$stamp" ] && [ -z "$(find "$stamp" -mmin +1440)" ]; then
		return 0
	fi
	main=$(apt_uri main)
	sec=$(apt_uri security)
	[ -n "$main" ] || die "no Debian archive URI found in the apt configuration"
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	{
		for s in bullseye bookworm bookworm-updates bookworm-backports; do
			printf 'deb [arch=arm64,amd64 signed-by=%s] %s %s main\n' "$key" "$main" "$s"
		done
		if [ -n "$sec" ]; then
			for s in bullseye-security bookworm-security; do
				printf 'deb [arch=arm64,amd64 signed-by=%s] %s %s main\n' "$key" "$sec" "$s"
			done
		fi
	} >"$HMPGOV_APT/sources.list"
	papt -q update >"$HMPGOV_APT/update.log" 2>&1 ||
		die "private apt update failed (see $HMPGOV_APT/update.log)"
	touch "$stamp"
}

# Download one package (name[:arch][=version]) into the deb cache and print
# the .deb's path. Already downloaded files are reused.
deb_fetch() {
	local spec=$1 name arch ver file pattern
	name=${spec%%[:=]*}
	arch=$(printf '%s' "$spec" | sed -n 's/^[^:=]*:\([a-z0-9]*\).*/\1/p')
	ver=$(printf '%s' "$spec" | sed -n 's/^[^=]*=//p')
	mkdir -p "$HMPGOV_DEBS"
	if [ -z "$ver" ]; then
		ver=$(papt_cache policy "$name${arch:+:$arch}" | awk '/Candidate:/{print $2}')
		[ -n "$ver" ] && [ "$ver" != "(none)" ] || die "package $spec not found"
	fi
	pattern="${name}_$(printf '%s' "$ver" | sed 's/:/%3a/')_${arch:-*}.deb"
	file=$(find "$HMPGOV_DEBS" -maxdepth 1 -name "$pattern" | head -n 1)
	if [ -z "$file" ]; then
		(cd "$HMPGOV_DEBS" && papt -q download "$name${arch:+:$arch}=$ver" >/dev/null) ||
			die "download of $spec failed"
		file=$(find "$HMPGOV_DEBS" -maxdepth 1 -name "$pattern" | head -n 1)
	fi
	[ -n "$file" ] || die "download of $spec left no file"
	printf '%s\n' "$file"
}

# Versions of a package in some suites, newest first, one per line.
# $2 is an extended regex over suite names ("bookworm(-security)?").
suite_versions() { # $1 = package[:arch], $2 = suite regex
	papt_cache madison "$1" | awk -F'|' -v s="$2" '
		{ gsub(/ /, "", $2); split($3, a, " "); if (a[2] ~ "^(" s ")/") print $2 }' |
		sort -uV -r
}

# The versioned package a metapackage version depends on, matching a regex.
meta_target() { # $1 = meta:arch, $2 = version, $3 = regex
	papt_cache show "$1=$2" | awk '/^Depends:/{ sub(/^Depends: /, ""); print; exit }' |
		tr ',' '\n' | sed 's/^ *//; s/ .*//' | grep -E "$3" | head -n 1
}

# The kernel matrix: one line per entry "id arch flavour suite".
# The "own" ids are built by scripts/build-kernel.sh from linux-source.
matrix_entries() {
	cat <<-'EOF'
	deb-5.10-arm64 arm64 arm64 bullseye
	deb-6.1-arm64 arm64 arm64 bookworm
	deb-6.12-arm64 arm64 arm64 bookworm-backports
	deb-6.12-rt-arm64 arm64 rt-arm64 bookworm-backports
	deb-6.1-amd64 amd64 amd64 host
	own-6.12-arm64 arm64 own bookworm-backports
	own-6.12-debug-arm64 arm64 own bookworm-backports
	EOF
}

# need_gnuplot: the plotting scripts' gnuplot (Debian's gnuplot-nox:
# pngcairo, no X), installed when missing (setup-host.sh installs it too).
need_gnuplot() {
	command -v gnuplot >/dev/null && return 0
	log "installing gnuplot-nox"
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnuplot-nox ||
		{ apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q gnuplot-nox; }; } >&2 ||
		die "gnuplot is missing and could not be installed (apt-get install gnuplot-nox)"
}

# QEMU settings shared by the device-tree build and the runner.
QEMU_MEM=${QEMU_MEM:-1024}
QEMU_ARM_CPU=cortex-a57

# prepare_guest KID: everything a guest run of KID needs, built or fetched
# as necessary (host packages, the kernel, device trees, module, initramfs).
# With HMPGOV_PREPARED=1 (make check, which has built all of them for every
# kernel of the matrix) nothing: the benchmarks it runs side by side must
# not rewrite an initramfs another guest is booting from.
prepare_guest() {
	[ "${HMPGOV_PREPARED:-0}" != 1 ] || return 0
	"$HMPGOV_TOP/scripts/setup-host.sh"
	case $1 in
	own-*) "$HMPGOV_TOP/scripts/build-kernel.sh" "$1" ;;
	*) "$HMPGOV_TOP/scripts/fetch-kernels.sh" "$1" ;;
	esac
	"$HMPGOV_TOP/scripts/fetch-qemu.sh"
	"$HMPGOV_TOP/scripts/build-dtbs.sh"
	"$HMPGOV_TOP/scripts/build-module.sh" "$1"
	"$HMPGOV_TOP/scripts/build-initramfs.sh" "$1"
}

# check_bench_log LOG: die unless the guest benchmark in LOG finished
# without an error line and without a kernel splat.
check_bench_log() {
	local splats
	[ -f "$1" ] || die "no guest log $1"
	if grep -aq '^@@BENCH error' "$1"; then
		grep -a '^@@BENCH error' "$1" | sed 's/^@@BENCH /guest: /' >&2
		die "the benchmark failed (see $1)"
	fi
	grep -aq '^@@BENCH done' "$1" || die "the benchmark did not finish (see $1)"
	splats=$("$HMPGOV_TOP/scripts/find-splats.sh" "$1" || true)
	[ -z "$splats" ] || die "kernel splat in the guest log: $(echo "$splats" | head -n 3 | tr '\n' ';')"
}
