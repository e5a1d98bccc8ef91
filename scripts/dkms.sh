#!/bin/bash
# vflipq as a DKMS package: its source tree, its tarball, and dkms builds of it
# for the test kernels in a private dkms tree.
#
#   scripts/dkms.sh src          build/dkms/vflipq-<ver>/: dkms.conf, Kbuild,
#                                drivers/, uapi/ ("dkms add" takes this path)
#   scripts/dkms.sh tarball      build/dkms/vflipq-<ver>-dkms.tar.gz, the source
#                                tree as dkms_source_tree/ ("dkms ldtarball" /
#                                "dkms add" take it)
#   scripts/dkms.sh build SERIES dkms ldtarball + build + install of that
#                                tarball for SERIES (6.12, 6.1, debug, ...; or
#                                any prepared kernel tree given as KDIR=...),
#                                all in build/dkms/tree-<kver>/ (--dkmstree,
#                                --sourcetree, --installtree): nothing goes to
#                                the host's /usr/src, /var/lib/dkms or
#                                /lib/modules.  Fails on any compiler or
#                                modpost warning in dkms' make.log.  Prints
#                                "dkms-module: <path of the installed .ko>".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BUILD=${BUILD:-$VFLIPQ_TOP/build}
DKMS_OUT=$BUILD/dkms
conf=$VFLIPQ_TOP/dkms.conf
[ -f "$conf" ] || die "$conf missing"
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$conf")
[ -n "$ver" ] || die "no PACKAGE_VERSION in $conf"
name=vflipq-$ver
# The package version follows the uAPI version (dkms.conf says so).
uapi=$(awk '$1 == "#define" && $2 == "VFLIPQ_UAPI_VERSION_MAJOR" { M = $3 }
	$1 == "#define" && $2 == "VFLIPQ_UAPI_VERSION_MINOR" { m = $3 }
	END { print M "." m }' "$VFLIPQ_TOP/uapi/drm/vflipq_drm.h")
[[ $ver == "$uapi".* ]] || die "dkms.conf: PACKAGE_VERSION $ver does not start with the uAPI version $uapi"

make_src() { # DIR: the dkms source tree
	local d=$1 f
	rm -rf "$d.tmp"
	mkdir -p "$d.tmp"
	cp "$conf" "$VFLIPQ_TOP/Kbuild" "$d.tmp/"
	# The sources only, never build products (the same filter as
	# build-module.sh, which builds in a copy as well).
	(cd "$VFLIPQ_TOP" && find drivers uapi -type f ! -name '*.o' ! -name '*.ko' \
		! -name '*.cmd' ! -name '*.mod' ! -name '*.mod.c' ! -name '*.order' \
		! -name '*.symvers' ! -name '*~' ! -name '.*.swp') | while read -r f; do
		mkdir -p "$d.tmp/$(dirname "$f")"
		cp -p "$VFLIPQ_TOP/$f" "$d.tmp/$f"
	done
	rm -rf "$d"
	mv "$d.tmp" "$d"
}

make_tarball() { # -> path of the tarball
	local t=$DKMS_OUT/$name-dkms.tar.gz stage
	mkdir -p "$DKMS_OUT"
	stage=$(mktemp -d "$DKMS_OUT/stage.XXXXXX")
	make_src "$stage/dkms_source_tree"
	# dkms 3.0.10 (bookworm) loads a tarball only in mktarball's layout:
	# dkms_source_tree/ (+ dkms_main_tree/ for prebuilt modules: none).
	mkdir -p "$stage/dkms_main_tree"
	tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner \
		-czf "$t.tmp" dkms_main_tree dkms_source_tree
	rm -rf "$stage"
	mv "$t.tmp" "$t"
	echo "$t"
}

dkms_build() { # SERIES
	local series=$1 tarball tree log ko t0 d
	if [ -n "${KDIR:-}" ]; then
		KVER=$(cat "$KDIR/include/config/kernel.release" 2>/dev/null) ||
			die "cannot read $KDIR/include/config/kernel.release"
	else
		eval "$("$VFLIPQ_TOP/scripts/kernel.sh" env "$series")"
	fi
	[ -f "$KDIR/Makefile" ] || die "KDIR=$KDIR has no Makefile"
	command -v dkms >/dev/null || die "dkms not installed (make deps)"
	tarball=$(make_tarball)
	tree=$DKMS_OUT/tree-$KVER
	rm -rf "$tree"
	mkdir -p "$tree"/{dkms,src} "$tree/modules/$KVER"
	# A private tree for every path dkms writes to; sign_file: no module
	# signing (dkms would otherwise create a key in /var/lib/dkms when the
	# host has a sign-file for this kernel version).
	local opts=(--dkmstree "$tree/dkms" --sourcetree "$tree/src" --installtree "$tree/modules")
	export sign_file=/nonexistent/vflipq-dkms-unsigned
	t0=$(now_s)
	log=$tree/dkms.log
	msg "dkms: $name for $KVER ($KDIR)"
	{
		dkms ldtarball "$tarball" "${opts[@]}" &&
		dkms build -m vflipq -v "$ver" -k "$KVER" --kernelsourcedir "$KDIR" "${opts[@]}" &&
		dkms install -m vflipq -v "$ver" -k "$KVER" --kernelsourcedir "$KDIR" --no-depmod \
			--force "${opts[@]}" &&
		dkms status -m vflipq "${opts[@]}"
	} >"$log" 2>&1 </dev/null || {
		cat "$log" >&2
		d=$(find "$tree/dkms" -name make.log 2>/dev/null | head -n1)
		if [ -n "$d" ]; then
			echo "---- compiler errors in $d:" >&2
			grep -E 'error:' "$d" | head -n 20 >&2 || tail -n 20 "$d" >&2
		fi
		die "dkms failed for $KVER (log: $log)"
	}
	d=$tree/dkms/vflipq/$ver/$KVER/$(uname -m)/log/make.log
	[ -f "$d" ] || die "no dkms make.log ($d)"
	if grep -Eiq 'warning:' "$d"; then
		grep -Ei 'warning:' "$d" >&2
		die "the dkms build of vflipq for $KVER produced warnings (log: $d)"
	fi
	ko=$(find "$tree/modules/$KVER" -name 'vflipq.ko*' | head -n1)
	[ -n "$ko" ] || die "dkms install put no vflipq.ko under $tree/modules/$KVER"
	case $ko in
	*.ko) ;;
	*) die "dkms installed a compressed module ($ko): not expected here" ;;
	esac
	msg "dkms: built and installed in $(elapsed "$t0")s: $(grep -m1 '^vflipq/' "$log" || true)"
	echo "dkms-module: $ko"
}

case ${1:-} in
src)
	make_src "$DKMS_OUT/$name"
	echo "$DKMS_OUT/$name" ;;
tarball)
	make_tarball ;;
build)
	dkms_build "${2:-${KERNEL:-6.12}}" ;;
*)
	die "usage: $0 src|tarball|build [SERIES]" ;;
esac
