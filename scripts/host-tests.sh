#!/bin/bash
# Host-side unit tests: the meson tests (scripts/meson.sh test: every test
# program under ASan+UBSan, then without sanitizers), then "make check" (or,
# failing that, "make selftest") of every component still built by make
# (igt-tests), with BUILD=build/<component>, then the harness's own script
# tests (tests/scripts/*.sh).
# Every "[name: ]N passed, M failed[, K skipped]" line of a component's output
# is added to the total (one per test program; print no extra grand total);
# a component printing none counts as 1 passed or 1 failed by its exit status.
# Prints the combined "N passed, M failed, K skipped" as the last line and
# writes it to build/host-tests.summary.  Exit status 1 if anything failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BUILD=${BUILD:-$VFLIPQ_TOP/build}
MAKE=${MAKE:-make}
mkdir -p "$BUILD"
pass=0 fail=0 skip=0 ran=0
# count NAME LOG RC: add the counted lines of LOG (the output of NAME, which
# exited with RC) to the totals.
count() {
	local name=$1 log=$2 rc=$3 lines cf=0 p f s
	# Every "[word: ]N passed, M failed[, K skipped]" line counts (a component
	# running several test programs prints one per program).
	lines=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^([A-Za-z0-9_-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' || true)
	if [ -n "$lines" ]; then
		while read -r p f s; do
			pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + ${s:-0})); cf=$((cf + f))
		done < <(sed -E 's/^([A-Za-z0-9_-]+: )?//; s/[^0-9]+/ /g' <<<"$lines")
		[ "$rc" != 0 ] && [ "$cf" = 0 ] && fail=$((fail + 1))
	elif [ "$rc" = 0 ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
	fi
	[ "$rc" = 0 ] || echo "FAIL host: $name (status $rc, log $log)"
}

if [ -f "$VFLIPQ_TOP/meson.build" ]; then
	ran=1
	log=$BUILD/host-tests-meson.log
	set +e
	BUILD=$BUILD "$VFLIPQ_TOP/scripts/meson.sh" test 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	set -e
	count "meson test" "$log" "$rc"
fi
for comp in igt-tests; do
	dir=$VFLIPQ_TOP/$comp
	[ -f "$dir/Makefile" ] || continue
	bdir=$BUILD/igt          # same BUILD as "make igt-tests"
	# Which test target does it have?  (make -q exits 2 for a missing target.)
	target=""
	for t in check selftest; do
		set +e
		$MAKE -s -C "$dir" -q "$t" BUILD="$bdir" >/dev/null 2>&1
		q=$?
		set -e
		if [ $q != 2 ]; then target=$t; break; fi
	done
	[ -n "$target" ] || continue
	ran=1
	log=$BUILD/host-tests-${comp//\//-}.log
	msg "host tests: make -C $comp $target"
	set +e
	$MAKE --no-print-directory -C "$dir" "$target" BUILD="$bdir" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	set -e
	count "make -C $comp $target" "$log" "$rc"
done
# The harness's own scripts (tests/scripts/*.sh, each printing its counts).
for t in "$VFLIPQ_TOP"/tests/scripts/*.sh; do
	[ -x "$t" ] || continue
	ran=1
	log=$BUILD/host-tests-$(basename "$t" .sh).log
	set +e
	"$t" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	set -e
	count "$t" "$log" "$rc"
done
# README.md's libpresent example must compile (and link, once libpresent is
# built): one test, "readme-example: N passed, M failed".
ran=1
log=$BUILD/host-tests-readme-example.log
set +e
BUILD=$BUILD "$VFLIPQ_TOP/scripts/readme-example.sh" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
count "scripts/readme-example.sh" "$log" "$rc"
summary="$pass passed, $fail failed, $skip skipped"
echo "$summary" >"$BUILD/host-tests.summary"
[ $ran = 1 ] || msg "host tests: none found"
echo "$summary"
[ "$fail" = 0 ]
