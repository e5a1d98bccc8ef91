#!/bin/bash
# Build vflipq.ko out of tree for one kernel.
#
#   scripts/build-module.sh [--sparse] [--cached] SERIES
#
# Copies Kbuild, drivers/ and uapi/ from $MODSRC (default: the repo top) into
# build/<kver>/module/ (only files whose content changed, so kbuild's
# incremental build keeps working), then runs
#   make -C $KDIR M=build/<kver>/module W=1 modules
# and fails on any compiler/modpost warning.  With --sparse the build runs with
# C=2 (sparse on every file, scripts/sparse.sh picks one the tree accepts)
# and sparse warnings fail the build as well, as does a tree that rejects it.
# KDIR may be given in the environment to build against another tree.
# VFLIPQ_TCG_ALIGN=y (make bench): the composer's code aligned for QEMU's
# TCG (Kbuild), built into build/<kver>/module-tcg-align.
# --cached: the tree of SERIES only if the cache already holds it (plain
# "make": no apt, no download, no kernel build); without it the test kernel
# is fetched or built first.
# The KUnit suites, tests/vflipq_test.ko, are built with it: against a
# kernel with KUnit by kbuild alone; for a test kernel without it (all of
# them) with kunit.ko built as a module (scripts/kunit-module.sh, which
# --cached only builds from a linux-source tree already in the cache),
# copied to build/<kver>/module/kunit/kunit.ko.  Not for a KDIR given in the
# environment that has no KUnit.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

sparse=0 cached=0
while [ $# -gt 1 ]; do
	case $1 in
	--sparse) sparse=1 ;;
	--cached) cached=1 ;;
	*) break ;;
	esac
	shift
done
series=${1:?usage: $0 [--sparse] SERIES}
MODSRC=${MODSRC:-$VFLIPQ_TOP}
BUILD=${BUILD:-$VFLIPQ_TOP/build}

user_kdir=${KDIR:+1}
if [ -n "${KDIR:-}" ]; then
	[ -f "$KDIR/Makefile" ] || die "KDIR=$KDIR has no Makefile"
	KVER=$(cat "$KDIR/include/config/kernel.release" 2>/dev/null) ||
		die "cannot read $KDIR/include/config/kernel.release"
elif [ $cached = 1 ]; then
	envs=$("$VFLIPQ_TOP/scripts/kernel.sh" cached "$series") || {
		msg "no kernel tree to build vflipq against: none at /lib/modules/$(uname -r)/build, and no KERNEL=$series test kernel in $VFLIPQ_CACHE."
		msg "Get one with 'make deps' (Debian's packages and the 6.12 test kernel) or 'make KERNEL=$series deps',"
		msg "or name a prepared tree: 'make KDIR=/path/to/linux-headers'."
		exit 2
	}
	eval "$envs"
else
	eval "$("$VFLIPQ_TOP/scripts/kernel.sh" env "$series")"
fi
[ -f "$MODSRC/Kbuild" ] || die "$MODSRC/Kbuild missing (driver sources not there yet?)"

out=$BUILD/$KVER/module
[ "${VFLIPQ_TCG_ALIGN:-}" = y ] && out+=-tcg-align
mkdir -p "$out"
# One build per directory at a time (several make invocations may share it).
exec 9>"$BUILD/$KVER/.module.lock"
flock -w 1800 9 || die "timed out waiting for $BUILD/$KVER/.module.lock"

# --- sync sources (content-compare, keep mtimes of unchanged files) ---------
manifest_new=$(cd "$MODSRC" && { echo Kbuild; find drivers uapi -type f \
	! -name '*.o' ! -name '*.ko' ! -name '*.cmd' ! -name '*.mod' ! -name '*.mod.c' \
	! -name '*.order' ! -name '*.symvers' ! -name '*~' ! -name '.*.swp' 2>/dev/null; } | sort)
changed=0
while read -r f; do
	[ -n "$f" ] || continue
	if ! cmp -s "$MODSRC/$f" "$out/$f"; then
		mkdir -p "$out/$(dirname "$f")"
		cp -p "$MODSRC/$f" "$out/$f"
		changed=$((changed + 1))
	fi
done <<<"$manifest_new"
# Remove sources that disappeared upstream (tracked through the manifest only,
# never build products).
if [ -f "$out/.vflipq-manifest" ]; then
	comm -23 "$out/.vflipq-manifest" <(echo "$manifest_new") | while read -r f; do
		[ -n "$f" ] && rm -f "$out/$f" && msg "removed stale $f"
	done
fi
echo "$manifest_new" >"$out/.vflipq-manifest"
[ $changed -gt 0 ] && msg "synced $changed changed file(s) into $out"

# --- KUnit as a module -------------------------------------------------------
kunit=""
if [ -z "$user_kdir" ] && ! grep -Eq '^CONFIG_KUNIT=[ym]$' "$KDIR/.config"; then
	kopt=()
	[ $cached = 1 ] && kopt=(--cached)
	krc=0
	kunit=$("$VFLIPQ_TOP/scripts/kunit-module.sh" "${kopt[@]}" "$series") || krc=$?
	[ $krc = 0 ] || [ $krc = 2 ] || die "kunit.ko for $KVER: build failed"
	[ $krc = 0 ] || kunit=""
fi
if [ -n "$kunit" ]; then
	mkdir -p "$out/kunit"
	cmp -s "$kunit/kunit.ko" "$out/kunit/kunit.ko" || cp "$kunit/kunit.ko" "$out/kunit/kunit.ko"
elif ! grep -Eq '^CONFIG_KUNIT=[ym]$' "$KDIR/.config"; then
	# No KUnit this time: no suites left over from a build that had it.
	rm -rf "$out/kunit" "$out/drivers/gpu/drm/vflipq/tests/vflipq_test.ko"
fi

# --- build ------------------------------------------------------------------
log=$out/build.log
args=(-C "$KDIR" M="$out" W=1 modules)
[ -n "$kunit" ] && args+=(VFLIPQ_KUNIT="$kunit" KBUILD_EXTRA_SYMBOLS="$kunit/Module.symvers")
[ "${VFLIPQ_TCG_ALIGN:-}" = y ] && args+=(VFLIPQ_TCG_ALIGN=y)
if [ $sparse = 1 ]; then
	# A sparse the tree accepts (7.x: newer than bookworm's; scripts/sparse.sh).
	args+=(C=2 CHECK="$("$VFLIPQ_TOP/scripts/sparse.sh" "$KDIR")")
	log=$out/sparse.log
fi
jobs=$(nproc 2>/dev/null || echo 2)
if [ $sparse = 1 ]; then msg "building vflipq for $KVER with sparse (C=2)"; else msg "building vflipq for $KVER"; fi
set +e
# Not a sub-make of ours: drop the caller's MAKEFLAGS (jobserver, KERNEL=...).
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -j"$jobs" "${args[@]}" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e

# Warnings: compiler ("file:line:col: warning:"), modpost ("WARNING: modpost:"),
# sparse ("file:line:col: warning:/error:").
pat='warning:'
# Kbuild only warns and goes on without sparse when the tree rejects it.
[ $sparse = 1 ] && pat='warning:|error:|specified, but .* is not available or not up to date'
if grep -Eiq "$pat" "$log"; then
	# Drop the objects so that the next build recompiles (and re-reports)
	# everything: a warning in a header would otherwise go silent.
	find "$out" -name '*.o' -delete
	find "$out" -name '*.ko' -delete
	echo "----" >&2
	grep -Ei "$pat" "$log" >&2 || true
	die "build of vflipq for $KVER produced warnings (log: $log)"
fi
[ "$rc" = 0 ] || die "build of vflipq for $KVER failed (log: $log)"
ko=$(find "$out" -name vflipq.ko | head -n1)
[ -n "$ko" ] || die "no vflipq.ko produced under $out"
msg "module: $ko"
