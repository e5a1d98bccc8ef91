#!/bin/bash
# The meson half of the build (meson.build: libpresent, tools, benchmarks,
# fuzzer, host tests).
#
#   scripts/meson.sh build   build/meson (no sanitizers: these binaries go
#                            into the VM), installed into build/userspace/
#                            (bin/, lib/ with libpresent.so.0, libpresent.a
#                            and pkgconfig/libpresent.pc, include/present/)
#   scripts/meson.sh test    "meson test" under ASan+UBSan (build/meson-asan,
#                            -Db_sanitize=address,undefined), then once more
#                            without (build/meson); prints one
#                            "name: N passed, M failed" line per test program
#                            and run (scripts/host-tests.sh adds them up)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BUILD=${BUILD:-$VFLIPQ_TOP/build}
PLAIN=$BUILD/meson
ASAN=$BUILD/meson-asan

# setup DIR OPTION...: configure DIR once (ninja re-runs meson by itself
# when a meson.build changes).
setup() {
	local dir=$1; shift
	[ -f "$dir/build.ninja" ] && return 0
	rm -rf "$dir"
	meson setup "$@" "$dir" "$VFLIPQ_TOP" >"$BUILD/$(basename "$dir")-setup.log" 2>&1 ||
		{ cat "$BUILD/$(basename "$dir")-setup.log" >&2; die "meson setup $dir failed"; }
}

setup_plain() {
	setup "$PLAIN" --prefix="$BUILD/userspace" --libdir=lib --bindir=bin
}

# run_tests DIR LABEL: meson test in DIR, then the per-program lines.
run_tests() {
	local dir=$1 label=$2 rc=0
	msg "host tests: meson test ($label, $dir)"
	meson test -C "$dir" --print-errorlogs >"$dir/meson-test.out" 2>&1 || rc=1
	# The summary table and, for a failed test, its output.
	grep -Ev '^(Ok|Expected Fail|Unexpected Pass|Skipped|Timeout): +0 *$|^ninja: ' \
		"$dir/meson-test.out" | sed 's/^/  /'
	# Each test's own "[name: ]N passed, M failed[, K skipped]" line; a test
	# that failed without counting a failure (a sanitizer report at exit,
	# a crash) or printed no line counts as one failure.
	python3 - "$dir/meson-logs/testlog.json" <<'PY'
import json, re, sys
pat = re.compile(r'^([A-Za-z0-9_-]+: )?([0-9]+) passed, ([0-9]+) failed(, [0-9]+ skipped)?$')
for line in open(sys.argv[1]):
    t = json.loads(line)
    name, ok = t["name"], t["result"] in ("OK", "EXPECTEDFAIL")
    counted = [m for m in map(pat.match, (t.get("stdout") or "").splitlines()) if m]
    failed = 0
    for m in counted:
        print("%s: %s passed, %s failed%s" % (name, m.group(2), m.group(3), m.group(4) or ""))
        failed += int(m.group(3))
    if not ok and not failed:
        print("%s: 0 passed, 1 failed (%s)" % (name, t["result"]))
    elif ok and not counted:
        print("%s: 1 passed, 0 failed" % name)
PY
	return $rc
}

case ${1:-} in
build)
	mkdir -p "$BUILD"
	setup_plain
	meson compile -C "$PLAIN"
	meson install -C "$PLAIN" --no-rebuild --quiet
	;;
test)
	mkdir -p "$BUILD"
	setup "$ASAN" -Db_sanitize=address,undefined
	setup_plain
	rc=0
	run_tests "$ASAN" "ASan+UBSan" || rc=1
	run_tests "$PLAIN" "no sanitizer" || rc=1
	exit $rc
	;;
*)
	die "usage: $0 build|test"
	;;
esac
