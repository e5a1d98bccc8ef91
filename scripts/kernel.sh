#!/bin/bash
# Fetch and unpack a Debian kernel (image, headers, kbuild) into the cache.
#
#   scripts/kernel.sh fetch SERIES   download + unpack (no-op when up to date),
#                                    then print the env file (KEY=value lines)
#   scripts/kernel.sh env SERIES     same as fetch (kept for readability)
#   scripts/kernel.sh get SERIES VAR print one variable (KVER KDIR KROOT VMLINUZ)
#   scripts/kernel.sh resolve SERIES print the kernel ABI name apt would pick
#   scripts/kernel.sh cached SERIES  print the env file of the newest tree of
#                                    SERIES already in the cache, without apt,
#                                    a download or a build (exit 3: none)
#
# SERIES: 6.12 -> newest linux-image-6.12.*+deb12-amd64-unsigned apt knows;
#         6.1  -> the version linux-headers-amd64 depends on;
#         other X.Y (X < 7) -> newest linux-image-X.Y*-amd64-unsigned;
#         debug, 7.2, 7.3 (any X.Y with X >= 7) -> a test kernel built from
#         Debian's linux-source with gcc-12 (scripts/source-kernel.sh).
# Layout: $VFLIPQ_CACHE/debs/*.deb and $VFLIPQ_CACHE/kernels/<kver>/{root,env}
# where root/ holds the dpkg -x of all packages, with the header Makefile and
# the lib/modules/<kver>/build link pointing inside root/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cmd=${1:-}; series=${2:-}
[ -n "$cmd" ] && [ -n "$series" ] || die "usage: $0 fetch|env|get|resolve|cached SERIES [VAR]"
# cached: what plain "make" builds against; it never installs or downloads.
if [ "$cmd" = cached ]; then
	case $series in
	debug) envs=("$VFLIPQ_CACHE"/debug-kernel/*/env) ;;
	[7-9].[0-9]|[7-9].[0-9][0-9]) envs=("$VFLIPQ_CACHE"/source-kernel/"$series"/*/env) ;;
	*) envs=("$VFLIPQ_CACHE"/kernels/"$series".*/env) ;;
	esac
	newest=$(ls -t "${envs[@]}" 2>/dev/null | head -n1 || true)
	[ -n "$newest" ] || exit 3
	cat "$newest"
	exit 0
fi
# SERIES "debug" (linux-source-6.12 with KASAN, lockdep, kmemleak, ...) and
# the 7.x release kernels are built from source by scripts/source-kernel.sh,
# which builds them if needed: sid's 7.x images are built with gcc-16, and
# bookworm's gcc-12 cannot build modules against their headers.
case $series in
debug|[7-9].[0-9]|[7-9].[0-9][0-9])
	exec "$(dirname "$0")/source-kernel.sh" "$cmd" "$series" "${@:3}" ;;
esac
[[ $series =~ ^[0-9]+\.[0-9]+$ ]] || die "KERNEL must look like 6.12 or 6.1, got '$series'"

KDIR_BASE=$VFLIPQ_CACHE/kernels
DEB_DIR=$VFLIPQ_CACHE/debs

# candidates PKG... -> "pkg version" lines for the packages that have a
# candidate version (one apt-cache call: each costs ~0.3 s).
candidates() {
	apt-cache policy "$@" 2>/dev/null | awk '
		/^[^ \t].*:$/ { pkg = substr($0, 1, length($0) - 1) }
		/^ +Candidate:/ { if ($2 != "(none)") print pkg, $2 }'
}
candidate() { candidates "$1" | awk '{ print $2 }'; }

resolve_once() {
	local kver="" re
	if [ "$series" = 6.1 ]; then
		kver=$(apt-cache depends linux-headers-amd64 2>/dev/null |
			sed -n 's/^ *Depends: linux-headers-\(6\.1\.[0-9][^ ]*-amd64\)$/\1/p' | head -n1)
	fi
	if [ -z "$kver" ]; then
		re="^linux-image-${series//./\\.}[.-][0-9][^ ]*-amd64-unsigned\$"
		local names p
		names=$(apt-cache pkgnames "linux-image-$series" 2>/dev/null | grep -E "$re" |
			grep -Ev -- '-(rt|cloud)-amd64' || true)
		[ -n "$names" ] || return 0
		# shellcheck disable=SC2086
		p=$(candidates $names | awk '{ print $1 }' | sort -V | tail -n1)
		[ -n "$p" ] || return 0
		kver=${p#linux-image-}; kver=${kver%-unsigned}
		echo "$kver"
		return 0
	fi
	[ -n "$(candidate "linux-image-$kver-unsigned")" ] && echo "$kver"
}

# The resolution only changes when apt's lists do: remember it, keyed on the
# lists' newest mtime (each apt-cache call costs ~0.3 s).
lists_mtime() {
	stat -c %Y /var/lib/apt/lists/*_Packages* 2>/dev/null | sort -n | tail -n1
}
RESOLVED_FROM_CACHE=0 RESOLVED=
# resolve: sets RESOLVED to the kernel ABI name (e.g. 6.12.117+deb12-amd64).
resolve() {
	local kver m cachef=$KDIR_BASE/.resolved-$series
	m=$(lists_mtime || true)
	if [ -n "$m" ] && [ -f "$cachef" ]; then
		local cm ck
		read -r cm ck <"$cachef" || true
		if [ "$cm" = "$m" ] && [ -n "$ck" ] && [ -f "$KDIR_BASE/$ck/env" ]; then
			RESOLVED_FROM_CACHE=1
			RESOLVED=$ck
			return 0
		fi
	fi
	apt_ready
	kver=$(resolve_once) || true
	if [ -z "$kver" ]; then
		apt_update
		kver=$(resolve_once) || true
	fi
	if [ -z "$kver" ]; then
		# Offline fallback: newest kernel of this series already unpacked.
		kver=$(cd "$KDIR_BASE" 2>/dev/null && ls -d "$series".* 2>/dev/null |
			while read -r d; do [ -f "$d/env" ] && echo "$d"; done | sort -V | tail -n1) || true
		[ -n "$kver" ] && warn "apt cannot resolve kernel $series; using cached $kver"
	fi
	[ -n "$kver" ] || die "cannot find a Debian kernel package for KERNEL=$series"
	m=$(lists_mtime || true)
	if [ -n "$m" ]; then
		mkdir -p "$KDIR_BASE"
		echo "$m $kver" >"$cachef.$$" && mv "$cachef.$$" "$cachef"
	fi
	RESOLVED=$kver
}

# deb_file PKG VERSION -> path of the .deb in $DEB_DIR (may not exist yet)
deb_file() {
	local v=${2//:/%3a}
	compgen -G "$DEB_DIR/${1}_${v}_*.deb" | head -n1 || true
}

fetch_unlocked() {
	local kver=$1 dir=$KDIR_BASE/$1
	local deps common kbuild pkgs=() p v f want=() missing=()
	deps=$(apt-cache depends "linux-headers-$kver" 2>/dev/null || true)
	common=$(sed -n 's/^ *Depends: \(linux-headers-[^ ]*-common\)$/\1/p' <<<"$deps" | head -n1)
	kbuild=$(sed -n 's/^ *Depends: \(linux-kbuild-[^ ]*\)$/\1/p' <<<"$deps" | head -n1)
	if [ -z "$common" ] || [ -z "$kbuild" ]; then
		[ -f "$dir/env" ] && { warn "apt does not know linux-headers-$kver; using cache"; return 0; }
		die "cannot resolve the header/kbuild packages of linux-headers-$kver"
	fi
	pkgs=("linux-image-$kver-unsigned" "linux-headers-$kver" "$common" "$kbuild")
	local cands
	cands=$(candidates "${pkgs[@]}")
	for p in "${pkgs[@]}"; do
		v=$(awk -v p="$p" '$1 == p { print $2 }' <<<"$cands")
		[ -n "$v" ] || die "no candidate version for $p"
		want+=("$p=$v")
		[ -n "$(deb_file "$p" "$v")" ] || missing+=("$p=$v")
	done
	local stamp
	stamp=$(printf '%s\n' "${want[@]}")
	if [ -f "$dir/env" ] && [ "$(cat "$dir/debs" 2>/dev/null)" = "$stamp" ]; then
		return 0
	fi
	mkdir -p "$DEB_DIR"
	if [ ${#missing[@]} -gt 0 ]; then
		local t0; t0=$(now_s)
		msg "downloading ${missing[*]}"
		# Download as root (no _apt sandbox: the cache may not be readable by _apt).
		if ! (cd "$DEB_DIR" && apt-get -q -o APT::Sandbox::User=root download "${missing[@]}" >&2); then
			# Stale lists: the version was superseded.  Refresh and let the
			# caller resolve again.
			warn "download failed; refreshing apt's lists"
			apt_update
			return 75
		fi
		msg "download done in $(elapsed "$t0")s"
	fi
	local t0; t0=$(now_s)
	msg "unpacking kernel $kver into $dir"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp/root"
	for p in "${want[@]}"; do
		f=$(deb_file "${p%%=*}" "${p#*=}")
		[ -n "$f" ] || die "download of $p failed"
		dpkg -x "$f" "$dir.tmp/root"
	done
	local r=$dir.tmp/root hdr=$dir.tmp/root/usr/src/linux-headers-$kver
	[ -f "$hdr/Makefile" ] || die "no $hdr/Makefile in linux-headers-$kver"
	# Debian's header Makefile includes the -common tree by absolute path.
	sed -i "s#^include /usr/src/#include $dir/root/usr/src/#" "$hdr/Makefile"
	# Absolute build/source links -> point inside the unpacked root.
	ln -sfn "$dir/root/usr/src/linux-headers-$kver" "$r/lib/modules/$kver/build"
	ln -sfn "$dir/root/usr/src/$common" "$r/lib/modules/$kver/source"
	[ -f "$r/boot/vmlinuz-$kver" ] || die "no vmlinuz in linux-image-$kver-unsigned"
	# modules.dep for the image tree (used to resolve module dependencies).
	depmod -b "$r" "$kver"
	printf '%s\n' "${want[@]}" >"$dir.tmp/debs"
	cat >"$dir.tmp/env" <<EOT
KSERIES=$series
KVER=$kver
KROOT=$dir/root
KDIR=$dir/root/usr/src/linux-headers-$kver
VMLINUZ=$dir/root/boot/vmlinuz-$kver
EOT
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	msg "unpacked in $(elapsed "$t0")s"
}

case $cmd in
resolve)
	resolve
	echo "$RESOLVED" ;;
fetch|env|get)
	resolve
	kver=$RESOLVED
	envf=$KDIR_BASE/$kver/env
	# A cached resolution means apt's lists did not change since the kernel
	# was unpacked: nothing new to fetch.
	if [ ! -f "$envf" ] || [ ! -f "$KDIR_BASE/$kver/debs" ] ||
		{ [ "$cmd" = fetch ] && [ $RESOLVED_FROM_CACHE = 0 ]; }; then
		mkdir -p "$KDIR_BASE"
		frc=0
		with_cache_lock kernels fetch_unlocked "$kver" || frc=$?
		if [ $frc = 75 ]; then
			# The lists were stale: resolve again with fresh ones and retry.
			rm -f "$KDIR_BASE/.resolved-$series"
			RESOLVED_FROM_CACHE=0
			resolve
			kver=$RESOLVED
			envf=$KDIR_BASE/$kver/env
			with_cache_lock kernels fetch_unlocked "$kver"
		elif [ $frc != 0 ]; then
			exit $frc
		fi
	fi
	[ -f "$envf" ] || die "kernel $kver not unpacked"
	if [ "$cmd" = get ]; then
		var=${3:?usage: $0 get SERIES VAR}
		sed -n "s/^$var=//p" "$envf"
	else
		cat "$envf"
	fi ;;
*)
	die "unknown command $cmd" ;;
esac
