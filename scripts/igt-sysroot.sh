#!/bin/bash
# Upstream IGT (Debian sid's igt-gpu-tools + igt-gpu-tools-tests) as a cpio
# archive to append to the test VM's initramfs, cached per package versions.
#
#   scripts/igt-sysroot.sh          print the path of the cached igt.cpio
#
# IGT 2.5 needs sid's libc (>= 2.38), so it cannot run on the bookworm host
# and is not built here (Debian serves no source packages through apt, and
# there are no IGT headers to build against).  Instead the .debs of IGT and
# of its runtime dependency closure (scripts/sid-apt.sh, pruned of what the
# guest cannot need: python, fonts, debconf, X11 data) are unpacked with
# dpkg -x into a sysroot:
#   $VFLIPQ_CACHE/igt/<key>/tree/igt-root  the sysroot (usr-merged, + busybox sh)
#   $VFLIPQ_CACHE/igt/<key>/igt.cpio the same under /igt-root, newc
#   $VFLIPQ_CACHE/igt/<key>/versions the .deb file names the key hashes
# The guest job (scripts/guest/igt) chroots into /igt-root.  The key is a hash
# of the .deb file names (name_version_arch) and of LAYOUT, so a new sid
# upload of any of them, or a change to what build() does with them, makes a
# new sysroot; old ones stay until removed by hand.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

SIDAPT=$VFLIPQ_TOP/scripts/sid-apt.sh
base=$VFLIPQ_CACHE/igt
# Bump when build() makes a different tree from the same .debs (2: udevd).
LAYOUT=2

# Not needed in the guest: the interpreters and data igt-gpu-tools' scripts
# and the X11/font stack pull in (igt_runner and the tests are C; cairo only
# draws test patterns, the tests print no text into framebuffers that a font
# would change), debconf and friends.
PRUNE_RE='^(python3.*|libpython3.*|fonts-.*|xfonts-.*|x11-common|debconf|cdebconf|libdebian-installer4|libnewt0.52|libslang2|libtextwrap1|tzdata|sysvinit-utils|lsb-base|netbase|media-types|readline-common|libreadline8t64|openssl-provider-legacy|intel-gpu-tools|libfontenc1|fontconfig-config)$'

pkgs=$("$SIDAPT" depends igt-gpu-tools igt-gpu-tools-tests | grep -Ev "$PRUNE_RE")
[ -n "$pkgs" ] || die "sid-apt: no dependency closure for igt-gpu-tools"
# systemd-udevd for the guest (scripts/guest/igt): IGT's uevent monitors
# listen to what udevd re-broadcasts, not to the kernel.  Not udev's closure:
# its Depends (systemd, sysusers, adduser and through them perl and PAM) serve
# its maintainer scripts and the init system; the daemon links only libc and
# libsystemd-shared (checked below), libudev1 and libkmod2 are IGT's already.
pkgs+=$'\nudev\nlibsystemd-shared'
# shellcheck disable=SC2086 # one package name a word
uris=$("$SIDAPT" apt-get download --print-uris $pkgs 2>/dev/null) ||
	die "sid-apt: cannot resolve the IGT packages"
versions=$(awk '{ print $2 }' <<<"$uris" | LC_ALL=C sort)
grep -q '^igt-gpu-tools-tests_' <<<"$versions" || die "sid-apt: igt-gpu-tools-tests not found"
key=$(printf 'layout %s\n%s\n' "$LAYOUT" "$versions" | sha256sum | cut -c1-16)
dir=$base/$key

build() {
	[ -f "$dir/.complete" ] && return 0
	local t0 d
	t0=$(now_s)
	d=$base/debs
	msg "igt: downloading $(wc -l <<<"$versions") .debs (IGT $(sed -n 's/^igt-gpu-tools_\([^_]*\)_.*/\1/p' <<<"$versions"))"
	# shellcheck disable=SC2086
	"$SIDAPT" download "$d" $pkgs
	rm -rf "$dir"
	mkdir -p "$dir/tree/igt-root"
	while read -r f; do
		[ -f "$d/$f" ] || die "igt: $d/$f was not downloaded"
		dpkg -x "$d/$f" "$dir/tree/igt-root"
	done <<<"$versions"
	local r=$dir/tree/igt-root
	# base-files' usr-merge links, and a shell for the few tests that system().
	for l in bin lib lib64 sbin; do
		[ -e "$r/$l" ] || ln -s "usr/$l" "$r/$l"
	done
	mkdir -p "$r/usr/lib64" "$r/usr/sbin" "$r/dev" "$r/proc" "$r/sys" "$r/tmp" "$r/run" "$r/out"
	[ -e "$r/usr/lib64/ld-linux-x86-64.so.2" ] ||
		ln -s ../lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 "$r/usr/lib64/ld-linux-x86-64.so.2"
	cp /bin/busybox "$r/usr/bin/busybox"
	ln -sf busybox "$r/usr/bin/sh"
	rm -rf "$r/usr/share/doc" "$r/usr/share/man" "$r/usr/share/locale" "$r/usr/share/info" \
		"$r/usr/share/lintian" "$r/usr/share/bug"
	[ -x "$r/usr/bin/igt_runner" ] || die "igt: no igt_runner in the sysroot"
	[ -f "$r/usr/libexec/igt-gpu-tools/test-list.txt" ] || die "igt: no test-list.txt in the sysroot"
	# udevd with no rules and no hwdb: in the guest under test it is to pass
	# uevents on to libudev monitors, not load modules, rename interfaces or
	# run helpers.
	[ -x "$r/usr/lib/systemd/systemd-udevd" ] || die "igt: no systemd-udevd in the sysroot"
	rm -rf "$r/usr/lib/udev/rules.d" "$r/usr/lib/udev/hwdb.d" "$r/etc/udev/rules.d"
	# Every test binary and udevd must find all their libraries in the sysroot.
	local ldso=$r/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 lp f missing=""
	lp=$r/usr/lib/x86_64-linux-gnu:$r/lib/x86_64-linux-gnu:$r/usr/lib/x86_64-linux-gnu/systemd
	for f in "$r"/usr/bin/igt_runner "$r"/usr/libexec/igt-gpu-tools/kms_* "$r"/usr/bin/udevadm; do
		if "$ldso" --library-path "$lp" --list "$f" 2>&1 | grep -q 'not found'; then
			missing+=" ${f##*/}"
		fi
	done
	[ -z "$missing" ] || die "igt: libraries missing in the sysroot for:$missing"
	printf '%s\n' "$versions" >"$dir/versions"
	(cd "$dir/tree" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$dir/igt.cpio.tmp"
	mv "$dir/igt.cpio.tmp" "$dir/igt.cpio"
	touch "$dir/.complete"
	msg "igt: sysroot $dir ($(du -sh "$r" | cut -f1), cpio $(du -h "$dir/igt.cpio" | cut -f1), $(elapsed "$t0")s)"
}
with_cache_lock igt build
echo "$dir/igt.cpio"
