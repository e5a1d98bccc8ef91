#!/bin/bash
# The real clients of "make clients" as a cpio to append to the test VM's
# initramfs (scripts/vm-run.sh --job clients): Debian bookworm's drm_info,
# libdrm's test programs, weston 10 (DRM back end, pixman renderer,
# desktop shell, demo clients), kmscube with Mesa's software GBM/EGL
# (kms_swrast), their shared libraries, plug-ins and data (xkb, glvnd).
#
#   scripts/mkclients.sh        prints the path of the cached cpio
#
# The packages are installed on the host (scripts/deps.sh clients): apt
# resolves their dependencies and ldd finds every library, including those
# of the dlopened plug-ins.  The cpio is cached in $VFLIPQ_CACHE/clients/,
# keyed by the packages' versions and this script, so the normal test boot
# stays small and the clients job pays the ~10 s to build it only once.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Installed first: the plug-in globs below expand only once the files exist.
# apt's progress goes to stderr: stdout carries only the cpio's path, which
# scripts/vm-run.sh captures (apt's lines there became cat's file names).
"$VFLIPQ_TOP/scripts/deps.sh" clients >&2

PKGS=(drm-info libdrm-tests weston libweston-10-0 kmscube libgbm1 libegl1
      libegl-mesa0 libgl1-mesa-dri xkb-data)
ML=/usr/lib/x86_64-linux-gnu
BINS=(/usr/bin/drm_info /usr/bin/modetest /usr/bin/vbltest /usr/bin/proptest
      /usr/bin/kmscube /usr/bin/weston /usr/bin/weston-simple-shm
      /usr/bin/weston-presentation-shm "$ML/weston-desktop-shell"
      "$ML/weston-keyboard")
# Plug-ins loaded with dlopen (ldd does not see them from the binaries).
PLUGINS=("$ML"/weston/*.so* "$ML"/libweston-10/drm-backend.so
	 "$ML"/libweston-10/color-lcms.so "$ML/dri/kms_swrast_dri.so"
	 "$ML"/libEGL_mesa.so.0)
DATA=(/usr/share/weston /usr/share/X11/xkb /usr/share/glvnd/egl_vendor.d
      /usr/share/libdrm)

key=$( { cat "$0"; dpkg-query -W "${PKGS[@]}"; } | sha256sum | cut -c1-16)
dir=$VFLIPQ_CACHE/clients
out=$dir/clients-$key.cpio
build() {
	[ -f "$out" ] && return 0
	local t0 stage f l n=0
	t0=$(now_s)
	stage=$(mktemp -d "${TMPDIR:-/tmp}/vflipq-clients.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$stage'" EXIT
	declare -A libs=()
	for f in "${BINS[@]}" "${PLUGINS[@]}"; do
		[ -e "$f" ] || die "$f missing (scripts/deps.sh clients)"
		mkdir -p "$stage$(dirname "$f")"
		cp -L "$f" "$stage$f"
		while read -r l; do
			[ -n "$l" ] && libs[$l]=1
		done < <(ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
					 $1 ~ /^\// { print $1 }')
	done
	for l in "${!libs[@]}"; do
		mkdir -p "$stage$(dirname "$l")"
		cp -L "$l" "$stage$l"
		n=$((n + 1))
	done
	for f in "${DATA[@]}"; do
		[ -d "$f" ] || continue
		mkdir -p "$stage$(dirname "$f")"
		cp -a "$f" "$stage$f"
	done
	mkdir -p "$dir"
	rm -f "$dir"/clients-*.cpio
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) >"$out.tmp"
	mv "$out.tmp" "$out"
	msg "clients cpio $out: $(du -h "$out" | cut -f1), $n libraries ($(elapsed "$t0")s)"
}
with_cache_lock clients build
echo "$out"
