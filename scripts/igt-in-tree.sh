#!/bin/bash
# vflipq's tests built inside an IGT tree by IGT's own meson, the way a user
# proposing them upstream builds them (igt-tests/README.md, "Building inside
# an IGT tree"): the IGT 2.2 tarball unpacked into a temporary directory,
# igt-tests/ linked in as tests/vflipq, subdir('vflipq') added next to
# subdir('vkms') with the README's sed, meson set up with the options of
# scripts/igt-lib.sh (shared/deps/README.md), and ninja asked only for what
# is checked: the vflipq binaries (libigt with them), their .testlist files
# and IGT's test-list.txt, none of IGT's own tests.
#
#   scripts/igt-in-tree.sh          ("make igt-in-tree")
#
# Not part of "make check": it builds libigt from scratch every time, which
# takes minutes.  Per binary of igt-tests/Makefile's TESTS, one test: it was
# built, its <bin>.testlist (written by running it on the host) lists
# subtests, IGT's test-list.txt names it as vflipq/<bin>, and IGT's own
# "testcase check" (tests/igt_command_line.sh: option handling, subtest
# listing, no duplicate names) passes.  Prints "igt-in-tree: N passed, M
# failed".  The temporary tree goes under TMPDIR (default /tmp) and is
# removed afterwards, unless something failed or KEEP=1; then its path is
# printed.  IGT_TARBALL as for scripts/igt-lib.sh.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

IGT_TESTS=$VFLIPQ_TOP/igt-tests
TARBALL=$("$VFLIPQ_TOP/scripts/igt-lib.sh" --tarball)
mapfile -t MESON_OPTS < <("$VFLIPQ_TOP/scripts/igt-lib.sh" --meson-options)
# make list needs no IGT.
read -r -a TESTS < <(make -s --no-print-directory -C "$IGT_TESTS" list)
[ "${#TESTS[@]}" -gt 0 ] || die "igt-tests/Makefile lists no tests"

work=$(mktemp -d "${TMPDIR:-/tmp}/vflipq-igt-in-tree.XXXXXX")
keep=${KEEP:-0}
cleanup() {
	if [ "$keep" = 1 ]; then msg "the IGT tree is kept in $work"
	else rm -rf "$work"; fi
}
trap cleanup EXIT
# failed STEP LOG: a step before the per-binary checks failed.
failed() {
	keep=1
	tail -n 40 "$2" >&2
	die "$1 failed (log: $2)"
}

t0=$(now_s)
tar -xJf "$TARBALL" -C "$work"
igt=$work/igt-gpu-tools-2.2
[ -f "$igt/tests/meson.build" ] || die "$TARBALL does not unpack to igt-gpu-tools-2.2/"

# As the README says: a symlink, and the line after subdir('vkms'), before
# tests/meson.build writes test-list.txt.
ln -s "$IGT_TESTS" "$igt/tests/vflipq"
sed -i "/^subdir('vkms')/a subdir('vflipq')" "$igt/tests/meson.build"
grep -qx "subdir('vflipq')" "$igt/tests/meson.build" ||
	die "no subdir('vkms') line in IGT's tests/meson.build to put subdir('vflipq') after"

msg "meson setup of IGT 2.2 with tests/vflipq in $igt/build"
(cd "$igt" && meson setup "${MESON_OPTS[@]}" build) >"$work/setup.log" 2>&1 ||
	failed "meson setup" "$work/setup.log"

targets=(tests/test-list.txt)
for t in "${TESTS[@]}"; do
	targets+=("tests/vflipq/$t" "tests/vflipq/$t.testlist")
done
msg "building libigt and the ${#TESTS[@]} vflipq binaries"
ninja -C "$igt/build" "${targets[@]}" >"$work/build.log" 2>&1 ||
	failed "ninja" "$work/build.log"
build_s=$(elapsed "$t0")

pass=0 fail=0
for t in "${TESTS[@]}"; do
	bin=$igt/build/tests/vflipq/$t
	why=""
	if [ ! -x "$bin" ]; then
		why="not built"
	elif ! grep -q "^igt@$t@" "$bin.testlist"; then
		why="$t.testlist lists no subtest"
	elif ! tr ' ' '\n' <"$igt/build/tests/test-list.txt" | grep -qx "vflipq/$t"; then
		why="not in IGT's test-list.txt"
	elif ! meson test -C "$igt/build" --no-rebuild --quiet \
		"testcase check vflipq/$t" >"$work/check-$t.log" 2>&1; then
		why="IGT's testcase check failed (meson-logs/testlog.txt)"
	fi
	if [ -z "$why" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL igt-in-tree: $t: $why"
		fail=$((fail + 1))
		keep=1
	fi
done
msg "IGT tree set up and built in ${build_s}s, checked in $(elapsed "$t0")s"
echo "igt-in-tree: $pass passed, $fail failed"
[ "$fail" = 0 ]
