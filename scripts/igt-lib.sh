#!/bin/bash
# Upstream IGT's library (libigt) and igt_runner, which igt-tests/ builds
# against, from igt-gpu-tools-2.2.tar.xz (shared/deps/README.md).
#
#   scripts/igt-lib.sh build     unpack and build the tarball once into
#                                $VFLIPQ_CACHE/igt-2.2/ (keyed by its sha256,
#                                locked against concurrent builds): "make deps"
#   scripts/igt-lib.sh --check   is it built?  Says how to build it and fails
#                                if not (plain "make": builds nothing)
#   scripts/igt-lib.sh --paths   "IGT_DIR IGT_BUILD" on stdout: the source
#                                tree (headers) and its meson build dir
#                                (libigt.so.0 in lib/, igt_runner in runner/);
#                                fails like --check when not built
#   scripts/igt-lib.sh --tarball  the tarball's path, its sha256 checked
#   scripts/igt-lib.sh --meson-options  the meson options below, one a line
#                                (scripts/igt-in-tree.sh configures with them)
#
# IGT_SRC=/path/to/igt-gpu-tools: another IGT checkout instead of the
# tarball.  --paths and build then configure it once in
# $VFLIPQ_CACHE/igt-src/<hash of the path>/ (never inside the checkout) and
# run ninja there on every call, so that edits to the checkout are built.
# The tarball is looked for at $IGT_TARBALL, then <repo>/../shared/deps/,
# then /work/shared/deps/ (CI's clone need not sit next to shared/).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

IGT_VERSION=2.2
IGT_SHA256=615dc17d0e6234b8dfa5112d98bfcb9d98af54953964aec273b89bc8f97b71a1
TARBALL_NAME=igt-gpu-tools-$IGT_VERSION.tar.xz
CACHE_DIR=$VFLIPQ_CACHE/igt-$IGT_VERSION
STAMP=$CACHE_DIR/built.sha256
# What the tests link (libigt.so.0) and what will run them (igt_runner).
TARGETS=(lib/libigt.so.0 runner/igt_runner)
# Only what KMS tests need: no docs, overlay, chamelium, man pages, test
# plans, Xe or the libdrm_intel/amdgpu/nouveau helpers (bookworm's libdrm
# build-deps suffice), no valgrind hooks: the options known to build on
# bookworm (shared/deps/README.md).  ninja builds only TARGETS, not IGT's
# own tests (sid's igt-gpu-tools package has those: "make igt").
MESON_OPTS=(-Ddocs=disabled -Doverlay=disabled -Dchamelium=disabled
	-Dman=disabled -Dtestplan=disabled -Dtests=enabled -Drunner=enabled
	-Dxe_driver=disabled -Dvalgrind=disabled -Dlibdrm_drivers=)

find_tarball() {
	local d
	if [ -n "${IGT_TARBALL:-}" ]; then
		[ -f "$IGT_TARBALL" ] || die "IGT_TARBALL=$IGT_TARBALL: no such file"
		echo "$IGT_TARBALL"
		return
	fi
	for d in "$VFLIPQ_TOP/../shared/deps" /work/shared/deps; do
		if [ -f "$d/$TARBALL_NAME" ]; then echo "$d/$TARBALL_NAME"; return; fi
	done
	die "$TARBALL_NAME not found in $VFLIPQ_TOP/../shared/deps or /work/shared/deps; set IGT_TARBALL=/path/to/$TARBALL_NAME (sha256 $IGT_SHA256)"
}

# meson_build SRC BUILDDIR: configure once, then ninja the TARGETS (ninja's
# output to stderr: --paths prints only the paths on stdout).
meson_build() {
	local src=$1 b=$2
	if [ ! -f "$b/build.ninja" ]; then
		rm -rf "$b"
		meson setup "${MESON_OPTS[@]}" "$b" "$src" >"$b.setup.log" 2>&1 ||
			{ tail -n 40 "$b.setup.log" >&2; die "meson setup of $src failed (log: $b.setup.log)"; }
	fi
	ninja -C "$b" "${TARGETS[@]}" >&2 || die "building libigt in $b failed"
}

# checked_tarball: the tarball's path, once its sha256 is the expected one.
checked_tarball() {
	local tb sum
	tb=$(find_tarball)
	sum=$(sha256sum "$tb" | cut -d' ' -f1)
	[ "$sum" = "$IGT_SHA256" ] ||
		die "$tb: sha256 $sum, expected $IGT_SHA256 (shared/deps/README.md)"
	echo "$tb"
}

build_tarball() {
	local tb t0
	[ "$(cat "$STAMP" 2>/dev/null)" = "$IGT_SHA256" ] && return 0
	tb=$(checked_tarball)
	t0=$(now_s)
	msg "building libigt and igt_runner from $tb into $CACHE_DIR (about 2 min)"
	rm -rf "$CACHE_DIR"
	mkdir -p "$CACHE_DIR"
	tar -xJf "$tb" -C "$CACHE_DIR"
	[ -d "$CACHE_DIR/igt-gpu-tools-$IGT_VERSION" ] ||
		die "$tb does not unpack to igt-gpu-tools-$IGT_VERSION/"
	mv "$CACHE_DIR/igt-gpu-tools-$IGT_VERSION" "$CACHE_DIR/src"
	meson_build "$CACHE_DIR/src" "$CACHE_DIR/src/build"
	echo "$IGT_SHA256" >"$STAMP"
	msg "libigt $IGT_VERSION built in $(elapsed "$t0")s"
}

# The other checkout's build dir, keyed by its real path.
src_build_dir() {
	local src
	src=$(cd "$IGT_SRC" && pwd -P)
	echo "$VFLIPQ_CACHE/igt-src/$(printf %s "$src" | sha256sum | cut -c1-16)/build"
}

build_src() {
	local b
	[ -f "$IGT_SRC/lib/igt_core.h" ] || die "IGT_SRC=$IGT_SRC is not an igt-gpu-tools tree (no lib/igt_core.h)"
	b=$(src_build_dir)
	mkdir -p "$(dirname "$b")"
	meson_build "$IGT_SRC" "$b"
}

check() {
	[ "$(cat "$STAMP" 2>/dev/null)" = "$IGT_SHA256" ] && return 0
	msg "libigt $IGT_VERSION is not built in $CACHE_DIR"
	msg "'make deps' builds it (scripts/igt-lib.sh build; IGT_TARBALL=/path/to/$TARBALL_NAME if the tarball is not in shared/deps/), or set IGT_SRC=/path/to/igt-gpu-tools"
	exit 2
}

case ${1:-} in
build)
	if [ -n "${IGT_SRC:-}" ]; then with_cache_lock igt-src build_src
	else with_cache_lock "igt-$IGT_VERSION" build_tarball; fi
	;;
--check)
	[ -n "${IGT_SRC:-}" ] || check
	;;
--tarball)
	checked_tarball
	;;
--meson-options)
	printf '%s\n' "${MESON_OPTS[@]}"
	;;
--paths)
	if [ -n "${IGT_SRC:-}" ]; then
		with_cache_lock igt-src build_src
		echo "$(cd "$IGT_SRC" && pwd -P) $(src_build_dir)"
	else
		check
		echo "$CACHE_DIR/src $CACHE_DIR/src/build"
	fi
	;;
*)
	die "usage: $0 build | --check | --paths | --tarball | --meson-options"
	;;
esac
