#!/bin/bash
# Build (or reuse) a test kernel from Debian's kernel sources with bookworm's
# gcc-12, on a tinyconfig base trimmed to what the test VM uses.  FLAVOUR:
#   debug  linux-source-6.12 with KASAN (generic, inline), KFENCE, lockdep
#          (PROVE_LOCKING), kmemleak, UBSAN bounds, DEBUG_LIST,
#          DEBUG_ATOMIC_SLEEP, DRM_DEBUG_MODESET_LOCK, ...
#          (scripts/debug-kernel.config)
#   X.Y    (X >= 7; today 7.2 from sid, 7.3 from experimental) linux-source-X.Y
#          as a release kernel: no debug instrumentation, distribution-like
#          hardening: the VM/DRM part of debug-kernel.config (the lines
#          before "# --- the debug set") + scripts/release-kernel.config.  Debian's
#          own 7.x images are built with gcc-16, whose flags bookworm's gcc-12
#          rejects (-fmin-function-alignment=16), so no out-of-tree module
#          could be built against their headers here.
#
#   scripts/source-kernel.sh build FLAVOUR [--force]  build unless cached
#                                      (--force: run make again in the cached tree)
#   scripts/source-kernel.sh env|fetch FLAVOUR  build unless cached, print the
#                                      env file (KEY=value, as scripts/kernel.sh)
#   scripts/source-kernel.sh get FLAVOUR VAR    one variable (KVER KDIR KROOT VMLINUZ)
#   scripts/source-kernel.sh resolve FLAVOUR    the kernel release (uname -r)
#   scripts/source-kernel.sh key FLAVOUR        the cache key and what it hashes
#   scripts/source-kernel.sh cached FLAVOUR     exit 0 if built and cached
#   scripts/source-kernel.sh config FLAVOUR     only generate + check the .config
#
# "scripts/kernel.sh fetch|env|get|resolve debug|7.2|7.3" lands here, so every
# script that takes a SERIES (build-module.sh, mkinitramfs.sh, vm-run.sh)
# accepts them as well; "make KERNEL=7.2 module" builds vflipq against 7.2.
#
# Config: "make tinyconfig" + the fragments (merge_config.sh), then "make
# olddefconfig"; every option the fragments set (=y, =m, values and "is not
# set") is checked in the final .config and the build fails naming the ones
# Kconfig dropped.
#
# Cache: $VFLIPQ_CACHE/debug-kernel/<key>/ (debug: the path and key of the
# former scripts/debug-kernel.sh, so its builds stay valid) or
# $VFLIPQ_CACHE/source-kernel/<X.Y>/<key>/, where <key> hashes the
# linux-source package version, the config fragments, "gcc --version", "ld
# --version" and RECIPE below:
#   build/     the O= object tree: .config, Module.symvers, bzImage; a prepared
#              KDIR for out-of-tree modules (its Makefile points into the
#              source tree unpacked by scripts/linux-source.sh)
#   root/      boot/vmlinuz-<kver> + lib/modules/<kver>/ (modules_install, depmod)
#   env        KSERIES KVER KROOT KDIR VMLINUZ (what kernel.sh env prints)
#   config     the final .config;  build.log  the last build's output
#   .complete  written last: with it, "build" is a no-op
# Only the 3 most recently used keys of each flavour are kept.
#
# Env: SOURCE_KERNEL_JOBS (make -j, default 2), SOURCE_KERNEL_NICE (default 10).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Bump when the build procedure changes in a way that changes the result.
RECIPE=1
JOBS=${SOURCE_KERNEL_JOBS:-2}
NICE=${SOURCE_KERNEL_NICE:-10}
KEEP=3

usage() {
	die "usage: $0 build FLAVOUR [--force] | env|fetch|resolve|key|config FLAVOUR | get FLAVOUR VAR"
}
cmd=${1:-}
FLAVOUR=${2:-}
[ -n "$cmd" ] && [ -n "$FLAVOUR" ] || usage
shift 2
SC=$VFLIPQ_TOP/scripts
DEBUG_CONFIG=$SC/debug-kernel.config
# FRAGMENTS: "label file" pairs, merged in this order; the label is what the
# cache key shows.  The release kernels take the VM/DRM part of the debug
# kernel's fragment (the lines before "# --- the debug set"), then
# release-kernel.config.
FRAGMENTS=()
case $FLAVOUR in
debug)
	SERIES=6.12 BASE=$VFLIPQ_CACHE/debug-kernel LOCK=debug-kernel
	FRAGMENTS=("debug-kernel.config" "$DEBUG_CONFIG") ;;
[7-9].[0-9]|[7-9].[0-9][0-9])
	SERIES=$FLAVOUR BASE=$VFLIPQ_CACHE/source-kernel/$FLAVOUR LOCK=source-kernel-$FLAVOUR
	grep -q '^# --- the debug set' "$DEBUG_CONFIG" ||
		die "no '# --- the debug set' line in $DEBUG_CONFIG"
	vm_part=$(mktemp "${TMPDIR:-/tmp}/vflipq-vm-part.XXXXXX")
	trap 'rm -f "$vm_part"' EXIT
	sed '/^# --- the debug set/,$d' "$DEBUG_CONFIG" >"$vm_part"
	FRAGMENTS=("debug-kernel.config (VM part)" "$vm_part"
		"release-kernel.config" "$SC/release-kernel.config") ;;
*)
	die "no source-built kernel '$FLAVOUR' (debug, or a release X.Y with X >= 7)" ;;
esac
FRAGMENT_FILES=()
for ((i = 1; i < ${#FRAGMENTS[@]}; i += 2)); do
	[ -f "${FRAGMENTS[i]}" ] || die "${FRAGMENTS[i]} missing"
	FRAGMENT_FILES+=("${FRAGMENTS[i]}")
done

SRC_VERSION=
src_version() {
	[ -n "$SRC_VERSION" ] ||
		SRC_VERSION=$("$VFLIPQ_TOP/scripts/linux-source.sh" --version "$SERIES") ||
		die "no linux-source-$SERIES"
	echo "$SRC_VERSION"
}

# key_inputs: everything the cache key hashes, human readable.
key_inputs() {
	echo "recipe $RECIPE"
	echo "linux-source-$SERIES $(src_version)"
	echo "--- gcc --version"
	gcc --version
	echo "--- ld --version"
	ld --version | head -n1
	for ((i = 0; i < ${#FRAGMENTS[@]}; i += 2)); do
		echo "--- ${FRAGMENTS[i]}"
		cat "${FRAGMENTS[i + 1]}"
	done
}
compute_key() {
	local h
	src_version >/dev/null # in this shell: key_inputs runs in a subshell
	h=$(key_inputs | sha256sum | cut -c1-16)
	echo "$(src_version | sed 's/[^A-Za-z0-9.+-]/_/g')-$h"
}

KEY=$(compute_key)
K=$BASE/$KEY
B=$K/build

# make_k ARGS...: the kernel's make, out of tree, without our make's flags.
make_k() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		make -C "$SRC" O="$B" ARCH=x86_64 "$@"
}

# in_kconfig SYM: whether this source tree's Kconfig defines SYM at all.
in_kconfig() {
	grep -rqsE --include='Kconfig*' "^[[:space:]]*(menu)?config ${1#CONFIG_}\$" "$SRC"
}

# check_config: every option of the fragments as requested in $B/.config
# (the last fragment setting an option wins); prints the ones that are not
# and fails.  An option this kernel's Kconfig does not define at all (merged
# or renamed upstream, e.g. PROC_SYSCTL into SYSCTL in 7.3) is only warned
# about: the fragment sets its successor as well.
check_config() {
	local line sym want got bad=()
	declare -A wants=()
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]}
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]} want=n
		else
			continue
		fi
		wants[$sym]=$want
	done < <(cat "${FRAGMENT_FILES[@]}")
	for sym in "${!wants[@]}"; do
		want=${wants[$sym]}
		got=$(sed -n "s/^$sym=//p" "$B/.config" | tail -n1)
		[ -n "$got" ] || got=n
		[ "$got" = "$want" ] && continue
		if [ "$got" = n ] && ! in_kconfig "$sym"; then
			warn "$sym: not defined by linux-source-$SERIES's Kconfig (ignored)"
			continue
		fi
		bad+=("$sym: wanted $want, got $got")
	done
	if [ ${#bad[@]} -gt 0 ]; then
		printf '[vflipq]   %s\n' "${bad[@]}" >&2
		die "${#bad[@]} option(s) of the $FLAVOUR fragments did not make it into the .config (unmet dependencies?): $B/.config"
	fi
}

gen_config() {
	mkdir -p "$B"
	make_k -s tinyconfig >/dev/null
	(cd "$B" && KCONFIG_CONFIG=.config "$SRC/scripts/kconfig/merge_config.sh" -m -Q \
		.config "${FRAGMENT_FILES[@]}" >/dev/null)
	make_k -s olddefconfig >/dev/null
	check_config
}

build_unlocked() {
	local force=$1 t0 rc kver
	if [ -f "$K/.complete" ] && [ "$force" = 0 ]; then
		return 0
	fi
	SRC=$("$VFLIPQ_TOP/scripts/linux-source.sh" "$SERIES")
	[ -f "$SRC/Makefile" ] || die "no kernel tree in $SRC"
	mkdir -p "$K"
	key_inputs >"$K/key-inputs.txt"
	t0=$(now_s)
	msg "$FLAVOUR kernel $KEY: configuring"
	gen_config
	msg "$FLAVOUR kernel: building in $B (make -j$JOBS, nice $NICE; log: $K/build.log)"
	set +e
	nice -n "$NICE" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		make -C "$SRC" O="$B" ARCH=x86_64 -j"$JOBS" all >"$K/build.log" 2>&1
	rc=$?
	set -e
	if [ $rc != 0 ]; then
		tail -n 30 "$K/build.log" >&2
		die "$FLAVOUR kernel build failed (log: $K/build.log)"
	fi
	[ -f "$B/Module.symvers" ] || die "no Module.symvers in $B"
	kver=$(cat "$B/include/config/kernel.release")
	# modules_prepare is part of "all"; run it explicitly anyway (cheap) so
	# that the tree is a complete KDIR for out-of-tree modules.
	make_k -s modules_prepare >>"$K/build.log" 2>&1
	rm -rf "$K/root.tmp"
	mkdir -p "$K/root.tmp/boot"
	make_k -s INSTALL_MOD_PATH="$K/root.tmp" modules_install >>"$K/build.log" 2>&1 ||
		die "modules_install failed (log: $K/build.log)"
	depmod -b "$K/root.tmp" "$kver"
	cp "$B/arch/x86/boot/bzImage" "$K/root.tmp/boot/vmlinuz-$kver"
	cp "$B/System.map" "$K/root.tmp/boot/System.map-$kver"
	cp "$B/.config" "$K/root.tmp/boot/config-$kver"
	rm -rf "$K/root"
	mv "$K/root.tmp" "$K/root"
	cp "$B/.config" "$K/config"
	cat >"$K/env" <<EOT
KSERIES=$FLAVOUR
KVER=$kver
KROOT=$K/root
KDIR=$B
VMLINUZ=$K/root/boot/vmlinuz-$kver
EOT
	touch "$K/.complete"
	msg "$FLAVOUR kernel $kver built in $(elapsed "$t0")s ($(grep -c '^  CC ' "$K/build.log" || true) files compiled): $K"
	prune
}

# prune: keep the $KEEP most recently used keys.
prune() {
	local d n=0
	# shellcheck disable=SC2012 # the key directories have no blanks
	ls -dt "$BASE"/*/ 2>/dev/null | while read -r d; do
		n=$((n + 1))
		[ $n -le $KEEP ] && continue
		d=${d%/}
		[ "$d" = "$K" ] && continue
		msg "removing old $FLAVOUR kernel $d"
		rm -rf "$d"
	done
}

ensure_built() {
	local force=${1:-0}
	if [ ! -f "$K/.complete" ] || [ "$force" = 1 ]; then
		mkdir -p "$BASE"
		with_cache_lock "$LOCK" build_unlocked "$force"
	fi
	[ -f "$K/env" ] || die "$FLAVOUR kernel $KEY not built"
	touch "$K" # most recently used (prune)
}

case $cmd in
build)
	force=0
	[ "${1:-}" = --force ] && force=1
	t0=$(now_s)
	ensure_built $force
	msg "$FLAVOUR kernel: $(sed -n 's/^KVER=//p' "$K/env") ($K) [$(elapsed "$t0")s]" ;;
env|fetch)
	ensure_built
	cat "$K/env" ;;
get)
	var=${1:?usage: $0 get VAR}
	ensure_built
	sed -n "s/^$var=//p" "$K/env" ;;
resolve)
	ensure_built
	sed -n 's/^KVER=//p' "$K/env" ;;
cached)
	[ -f "$K/.complete" ] ;;
key)
	echo "$KEY"
	key_inputs | sed "/^--- ${FRAGMENTS[0]}\$/,\$d" ;;
config)
	SRC=$("$VFLIPQ_TOP/scripts/linux-source.sh" "$SERIES")
	B=${SOURCE_KERNEL_CONFIG_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/vflipq-$FLAVOUR-config.XXXXXX")}
	gen_config
	msg "config OK: $B/.config" ;;
*)
	usage ;;
esac
