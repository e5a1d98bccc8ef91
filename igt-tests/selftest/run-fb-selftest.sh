#!/bin/sh
# SPDX-License-Identifier: MIT
# Run fb_selftest.c (vfq_fb on IGT's igt_fb, against a fake device) one
# subtest per process, as the guest runner does: the checks pass, and an
# fb IGT cannot make fails the test (exit 98), never skips it.
# Usage: run-fb-selftest.sh <path to fb_selftest binary>
BIN=${1:?usage: $0 fb_selftest-binary}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); echo "ok - $1"; }
nok() { fail=$((fail + 1)); echo "not ok - $1"; grep -v -- '-DEBUG:' "$TMP/out" | sed 's/^/    | /' | head -40; }

# result SUBTEST RESULT EXIT
result() {
	"$BIN" --run-subtest "$1" >"$TMP/out" 2>&1 </dev/null
	got=$?
	if [ "$got" -eq "$3" ] && grep -qF "Subtest $1: $2 (" "$TMP/out"; then
		ok "$1: $2"
	else
		nok "$1: exit $got, expected $3 and $2"
	fi
}

want="formats
destroy-after-test-rmfb
raw-buffers
paint
fail-unknown-format
fail-addfb-refused"
"$BIN" --list-subtests >"$TMP/out" 2>&1 </dev/null
if [ "$(cat "$TMP/out")" = "$want" ]; then ok "subtest list"
else nok "subtest list"; fi

result formats SUCCESS 0
result destroy-after-test-rmfb SUCCESS 0
result raw-buffers SUCCESS 0
result paint SUCCESS 0
result fail-unknown-format FAIL 98
result fail-addfb-refused FAIL 98

echo "fb-selftest: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
