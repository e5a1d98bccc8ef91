#!/bin/bash
# Build (or reuse) the vflipq debug test kernel: Debian's linux-source-6.12
# with KASAN (generic, inline), KFENCE, lockdep (PROVE_LOCKING), kmemleak,
# UBSAN bounds, DEBUG_LIST, DEBUG_ATOMIC_SLEEP, DRM_DEBUG_MODESET_LOCK, ...
# on a tinyconfig base trimmed to what the test VM uses.
#
#   scripts/debug-kernel.sh build [--force]  build unless cached (--force: run
#                                            make again in the cached tree)
#   scripts/debug-kernel.sh env|fetch        build unless cached, print the env
#                                            file (KEY=value, as scripts/kernel.sh)
#   scripts/debug-kernel.sh get VAR          one variable (KVER KDIR KROOT VMLINUZ)
#   scripts/debug-kernel.sh resolve          the kernel release (uname -r)
#   scripts/debug-kernel.sh key              the cache key and what it hashes
#   scripts/debug-kernel.sh config           only generate + check the .config
#
# "scripts/kernel.sh fetch|env|get|resolve debug" lands here, so every script
# that takes a SERIES (build-module.sh, mkinitramfs.sh, vm-run.sh) accepts
# "debug" as well; "make KERNEL=debug module" builds vflipq against it.
#
# Config: "make tinyconfig" + scripts/debug-kernel.config (merge_config.sh),
# then "make olddefconfig"; every option the fragment sets (=y, =m, values and
# "is not set") is checked in the final .config and the build fails naming the
# ones Kconfig dropped.
#
# Cache: $VFLIPQ_CACHE/debug-kernel/<key>/ where <key> hashes the
# linux-source-6.12 package version, the config fragment, "gcc --version",
# "ld --version" and RECIPE below:
#   build/     the O= object tree: .config, Module.symvers, bzImage; a prepared
#              KDIR for out-of-tree modules (its Makefile points into the
#              source tree unpacked by scripts/linux-source.sh)
#   root/      boot/vmlinuz-<kver> + lib/modules/<kver>/ (modules_install, depmod)
#   env        KSERIES KVER KROOT KDIR VMLINUZ (what kernel.sh env prints)
#   config     the final .config;  build.log  the last build's output
#   .complete  written last: with it, "build" is a no-op
# Only the 3 most recently used keys are kept.
#
# Env: DEBUG_KERNEL_JOBS (make -j, default 2), DEBUG_KERNEL_NICE (default 10).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Bump when the build procedure changes in a way that changes the result.
RECIPE=1
SERIES=6.12
FRAGMENT=$VFLIPQ_TOP/scripts/debug-kernel.config
BASE=$VFLIPQ_CACHE/debug-kernel
JOBS=${DEBUG_KERNEL_JOBS:-2}
NICE=${DEBUG_KERNEL_NICE:-10}
KEEP=3

cmd=${1:-build}
[ $# -gt 0 ] && shift
[ -f "$FRAGMENT" ] || die "$FRAGMENT missing"

src_version() {
	dpkg-query -W -f='${Version}' "linux-source-$SERIES" 2>/dev/null ||
		die "linux-source-$SERIES not installed (run: make deps)"
}

# key_inputs: everything the cache key hashes, human readable.
key_inputs() {
	echo "recipe $RECIPE"
	echo "linux-source-$SERIES $(src_version)"
	echo "--- gcc --version"
	gcc --version
	echo "--- ld --version"
	ld --version | head -n1
	echo "--- $(basename "$FRAGMENT")"
	cat "$FRAGMENT"
}
compute_key() {
	local h
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

# check_config: every option of the fragment as requested in $B/.config;
# prints the ones that are not and fails.
check_config() {
	local line sym want got bad=()
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]} want=${BASH_REMATCH[2]}
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set$ ]]; then
			sym=${BASH_REMATCH[1]} want=n
		else
			continue
		fi
		got=$(sed -n "s/^$sym=//p" "$B/.config" | tail -n1)
		[ -n "$got" ] || got=n
		[ "$got" = "$want" ] || bad+=("$sym: wanted $want, got $got")
	done <"$FRAGMENT"
	if [ ${#bad[@]} -gt 0 ]; then
		printf '[vflipq]   %s\n' "${bad[@]}" >&2
		die "${#bad[@]} option(s) of $(basename "$FRAGMENT") did not make it into the .config (unmet dependencies?): $B/.config"
	fi
}

gen_config() {
	mkdir -p "$B"
	make_k -s tinyconfig >/dev/null
	(cd "$B" && KCONFIG_CONFIG=.config "$SRC/scripts/kconfig/merge_config.sh" -m -Q \
		.config "$FRAGMENT" >/dev/null)
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
	msg "debug kernel $KEY: configuring"
	gen_config
	msg "debug kernel: building in $B (make -j$JOBS, nice $NICE; log: $K/build.log)"
	set +e
	nice -n "$NICE" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		make -C "$SRC" O="$B" ARCH=x86_64 -j"$JOBS" all >"$K/build.log" 2>&1
	rc=$?
	set -e
	if [ $rc != 0 ]; then
		tail -n 30 "$K/build.log" >&2
		die "debug kernel build failed (log: $K/build.log)"
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
KSERIES=debug
KVER=$kver
KROOT=$K/root
KDIR=$B
VMLINUZ=$K/root/boot/vmlinuz-$kver
EOT
	touch "$K/.complete"
	msg "debug kernel $kver built in $(elapsed "$t0")s ($(grep -c '^  CC ' "$K/build.log" || true) files compiled): $K"
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
		msg "removing old debug kernel $d"
		rm -rf "$d"
	done
}

ensure_built() {
	local force=${1:-0}
	if [ ! -f "$K/.complete" ] || [ "$force" = 1 ]; then
		mkdir -p "$BASE"
		with_cache_lock debug-kernel build_unlocked "$force"
	fi
	[ -f "$K/env" ] || die "debug kernel $KEY not built"
	touch "$K" # most recently used (prune)
}

case $cmd in
build)
	force=0
	[ "${1:-}" = --force ] && force=1
	t0=$(now_s)
	ensure_built $force
	msg "debug kernel: $(sed -n 's/^KVER=//p' "$K/env") ($K) [$(elapsed "$t0")s]" ;;
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
key)
	echo "$KEY"
	key_inputs | sed "/^--- $(basename "$FRAGMENT")\$/,\$d" ;;
config)
	SRC=$("$VFLIPQ_TOP/scripts/linux-source.sh" "$SERIES")
	B=${DEBUG_KERNEL_CONFIG_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/vflipq-debug-config.XXXXXX")}
	gen_config
	msg "config OK: $B/.config" ;;
*)
	die "usage: $0 build [--force] | env | get VAR | resolve | key | config" ;;
esac
