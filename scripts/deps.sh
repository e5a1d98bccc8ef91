#!/bin/bash
# Install the host packages vflipq needs (Debian bookworm).  Cheap when they
# are all present: one dpkg-query call.
#   scripts/deps.sh            what the build and the tests need
#   scripts/deps.sh clients    the real clients of "make clients", whose files
#                              scripts/mkclients.sh copies into the VM
#   scripts/deps.sh --check    what plain "make" needs: says which packages
#                              are missing and fails, installs nothing
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# What upstream IGT's library needs to build (scripts/igt-lib.sh,
# shared/deps/README.md) besides flex, bison, meson, ninja-build and
# libdrm-dev (in PKGS below); the first four are also what its headers
# include.
IGT_HEADERS=(libcairo2-dev libpixman-1-dev libglib2.0-dev libudev-dev)
IGT_BUILD_DEPS=("${IGT_HEADERS[@]}" libkmod-dev libproc2-dev libdw-dev
	libunwind-dev libjson-c-dev)

# present-play (userspace/play) and the clips it plays in the tests.
FFMPEG=(libavformat-dev libavcodec-dev libavutil-dev libswscale-dev ffmpeg)

if [ "${1:-}" = --check ]; then
	# The module (gcc, make, pahole for BTF), igt-tests (IGT's headers
	# include cairo's, pixman's, glib's and libudev's) and userspace
	# (present-play and its test decode with FFmpeg; ffmpeg makes the
	# clips, scripts/mkclips.sh).
	need=(gcc make dwarves libdrm-dev pkg-config meson ninja-build libpng-dev
	      "${IGT_HEADERS[@]}" "${FFMPEG[@]}")
	missing=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${need[@]}" 2>/dev/null |
		awk '$2 == "installed" { print $1 }' | sort | comm -13 - <(printf '%s\n' "${need[@]}" | sort))
	[ -z "$missing" ] && exit 0
	msg "missing packages for the build: $(echo $missing)"
	msg "'make deps' installs them (apt), as 'make check' and 'make demo' do"
	exit 2
fi

PKGS=(gcc-12 make bc dwarves kmod cpio xz-utils busybox-static qemu-system-x86
      libdrm-dev libdrm-tests sparse pkg-config linux-source-6.12 flex bison
      libelf-dev libssl-dev python3 zlib1g-dev perl dpkg-dev dkms
      meson ninja-build libpng-dev python3-matplotlib "${IGT_BUILD_DEPS[@]}"
      "${FFMPEG[@]}")
if [ "${1:-}" = clients ]; then
	PKGS=(drm-info libdrm-tests weston kmscube libgbm1 libegl1 libegl-mesa0
	      libgl1-mesa-dri xkb-data)
fi

missing=()
# dpkg-query prints "<pkg> <status>" for known packages; unknown ones go to stderr.
status=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PKGS[@]}" 2>/dev/null || true)
for p in "${PKGS[@]}"; do
	if ! grep -qx "$p installed" <<<"$status"; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

msg "installing missing packages: ${missing[*]}"
# Update the lists only when apt cannot see a candidate for a missing package.
need_update=0
if ! apt_lists_present; then
	need_update=1
else
	for p in "${missing[@]}"; do
		cand=$(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ { print $2 }')
		if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then need_update=1; break; fi
	done
fi
[ $need_update = 1 ] && apt_update
install() {
	as_root env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=600 \
		install --no-install-recommends "${missing[@]}"
}
if ! install; then
	# Stale lists (404 on download)?  Refresh them once and retry.
	[ $need_update = 1 ] && die "apt-get install failed"
	apt_update
	install
fi
