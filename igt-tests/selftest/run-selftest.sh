#!/bin/sh
# SPDX-License-Identifier: MIT
# Check the IGT harness the tests link (upstream libigt) against what
# scripts/guest/run-tests relies on: exit codes, result lines and subtest
# listing of the deliberate results in harness_selftest.c.
# Usage: run-selftest.sh <path to harness_selftest binary>
BIN=${1:?usage: $0 harness_selftest-binary}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok - $1"; }
nok() { fail=$((fail + 1)); echo "not ok - $1"; sed 's/^/    | /' "$TMP/out" | head -40; }

# run NAME EXPECTED_EXIT [args...]: runs BIN args, output in $TMP/out
run() {
	name=$1; want=$2; shift 2
	"$BIN" "$@" >"$TMP/out" 2>&1 </dev/null
	got=$?
	if [ "$got" -eq "$want" ]; then ok "$name: exit $got"
	else nok "$name: exit $got, expected $want"; fi
}
has() { # has DESCRIPTION PATTERN: last output contains the fixed string
	if grep -qF -- "$2" "$TMP/out"; then ok "$1"; else nok "$1: missing '$2'"; fi
}
hasnt() {
	if grep -qF -- "$2" "$TMP/out"; then nok "$1: unexpected '$2'"; else ok "$1"; fi
}
result() { # result SUBTEST RESULT EXIT: run one subtest, check exit and line
	run "$1" "$3" --run-subtest "$1"
	has "$1 starts" "Starting subtest: $1"
	has "$1 reports $2" "Subtest $1: $2 ("
}

expected_list="pass
pass-ioctl
pass-format-7
pass-until-timeout
fail-assert
fail-assert-f
fail-assert-eq
fail-assert-neq
fail-assert-lte
fail-assert-lt
fail-assert-eq-u32
fail-assert-eq-u64
fail-igt-fail
fail-do-ioctl
fail-do-ioctl-err
pass-after-fail
skip-require
skip-require-f
skip-skip-on
skip-igt-skip
timeout
abort
crash
exit-handler
skipped-by-fixture
failed-by-fixture
failed-by-fixture-2
pass-after-groups"

# listing: exact names in order, no fixture code run, exit 0
run list-subtests 0 --list-subtests
if [ "$(cat "$TMP/out")" = "$expected_list" ]; then ok "list output exact"
else nok "list output differs"; fi

run help 0 --help
has "help mentions --run-subtest" "--run-subtest"
run bad-option 79 --no-such-option
run unknown-subtest 79 --run-subtest no-such-subtest
has "unknown subtest named" "Unknown subtest: no-such-subtest"

for t in pass pass-ioctl pass-format-7 pass-until-timeout pass-after-fail \
	 exit-handler pass-after-groups; do
	result "$t" SUCCESS 0
done
run pass-fixture-ran 0 --run-subtest pass
has "fixture runs when a subtest runs" "fixture-ran"
hasnt "debug hidden by default" "debug-in-pass"
run pass-debug 0 --run-subtest pass --debug
has "--debug shows igt_debug" "debug-in-pass"

for t in fail-assert fail-assert-f fail-assert-eq fail-assert-neq \
	 fail-assert-lte fail-assert-lt fail-assert-eq-u32 fail-assert-eq-u64 \
	 fail-igt-fail fail-do-ioctl fail-do-ioctl-err; do
	result "$t" FAIL 98
done
run fail-assert-details 98 --run-subtest fail-assert
has "assertion printed" "Failed assertion: fixture_runs == 42"
has "debug log dumped on failure" "debug-dumped-on-failure"
run fail-assert-eq-details 98 --run-subtest fail-assert-eq
has "values printed" "error: 1 != 2"
run fail-assert-f-details 98 --run-subtest fail-assert-f
has "message printed" "deliberate failure"

for t in skip-require skip-require-f skip-skip-on skip-igt-skip; do
	result "$t" SKIP 77
done
run skip-require-f-details 77 --run-subtest skip-require-f
has "skip reason printed" "deliberate skip"

# igt_set_timeout() expiring fails the subtest (exit 98; 78 is left to
# igt_runner's own watchdog).
result timeout FAIL 98
has "timeout reason printed" "Timed out: deliberate hang"
run abort 112 --run-subtest abort
has "abort reported" "abort condition: fixture_runs == 1"
has "abort message printed" "deliberate abort"

"$BIN" --run-subtest crash >"$TMP/out" 2>&1 </dev/null
got=$?
if [ "$got" -gt 128 ]; then ok "crash: killed by signal ($got)"
else nok "crash: exit $got, expected death by signal"; fi
has "crash reported" "Subtest crash: CRASH"
# libigt ends the crashed subtest, goes on to the end of the binary and
# runs the exit handlers there (sig 0), then exits 128 + the signal.
has "exit handler ran after the crash" "exit-handler-ran sig="

run exit-handler-at-exit 0 --run-subtest exit-handler
has "exit handler ran at exit" "exit-handler-ran sig=0"

# a skipping fixture skips what follows it (in its group) without running it
run skipped-by-fixture 77 --run-subtest skipped-by-fixture
has "fixture skip reason" "deliberate fixture skip"
has "skipped-by-fixture reported SKIP" "Subtest skipped-by-fixture: SKIP"
hasnt "skipped subtest did not start" "Starting subtest: skipped-by-fixture"

# a failing fixture fails what follows it (in its group), and the run
SELFTEST_FIXTURE_FAIL=1 "$BIN" --run-subtest 'failed-by-fixture*' \
	>"$TMP/out" 2>&1 </dev/null
got=$?
if [ "$got" -eq 98 ]; then ok "failed-by-fixture: exit 98"
else nok "failed-by-fixture: exit $got, expected 98"; fi
has "failed-by-fixture reported FAIL" "Subtest failed-by-fixture: FAIL"
has "failed-by-fixture-2 reported FAIL" "Subtest failed-by-fixture-2: FAIL"
hasnt "failed subtests did not run" "ran-without-fixture-failure"
result failed-by-fixture SUCCESS 0
SELFTEST_FIXTURE_FAIL=1 "$BIN" --run-subtest pass-after-groups \
	>"$TMP/out" 2>&1 </dev/null
got=$?
if [ "$got" -eq 98 ]; then ok "fixture failure fails the run: exit 98"
else nok "fixture failure fails the run: exit $got, expected 98"; fi
has "group state restored after failed fixture" "Subtest pass-after-groups: SUCCESS"

# wildcard and list selection
run wildcard 0 --run-subtest 'pass-format-*'
has "wildcard runs the match" "Subtest pass-format-7: SUCCESS"
run comma-list 0 --run-subtest 'pass-ioctl,skip-igt-skip'
has "comma list runs both (1)" "Subtest pass-ioctl: SUCCESS"
has "comma list runs both (2)" "Subtest skip-igt-skip: SKIP"
hasnt "comma list runs no others" "Starting subtest: pass-format-7"

# mixed results: first failure's code, later subtests still run
run mixed 98 --run-subtest 'pass,fail-assert,pass-after-fail'
has "subtest after a failure still runs" "Subtest pass-after-fail: SUCCESS"
run all-skips 77 --run-subtest 'skip-*'

echo "selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
