#!/bin/bash
# The guest runner's KUnit part (scripts/guest/run-tests, run_kunit), run on
# the host from a copy whose module, console, kernel log and state point
# into a temporary directory; modprobe, rmmod and dmesg are stubs first in
# PATH: "modprobe vflipq_test" appends a canned KUnit log (KTAP lines as
# KUnit prints them) to the fake kernel log, dmesg prints it.  Each case is
# a result, a failed case shows KUnit's messages, a kernel report between
# two cases fails the later one, and a module that loads no case fails
# kunit@load.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/vflipq-rk.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/stub" "$t/out" "$t/bin"
sed "s#/out#$t/out#g; s#^KMSG=.*#KMSG=$t/kmsg#; s#^CONSOLE=.*#CONSOLE=$t/console#;
     s#^STATE=.*#STATE=$t/state#; s#^KUNIT_KO=.*#KUNIT_KO=$t/vflipq_test.ko#;
     s#/etc/vflipq/dmesg-patterns#$top/scripts/guest/dmesg-patterns#" \
	"$top/scripts/guest/run-tests" >"$t/run-tests"
cat >"$t/stub/modprobe" <<EOT
#!/bin/sh
[ "\$1" = vflipq_test ] && [ -f "$t/ktap" ] && sed 's/^/<6>/' "$t/ktap" >> "$t/kmsg"
exit 0
EOT
printf '#!/bin/sh\nexit 0\n' >"$t/stub/rmmod"
cat >"$t/stub/dmesg" <<EOT
#!/bin/sh
sed 's/^<[0-9]>//' "$t/kmsg"
EOT
chmod +x "$t/stub/"*
: >"$t/vflipq_test.ko"

pass=0 fail=0
# run TESTS: the runner on the canned log $t/ktap, its output in $t/log.
run() {
	: >"$t/kmsg"
	PATH="$t/stub:$PATH" VFLIPQ_BIN_DIR="$t/bin" VFLIPQ_TESTS="$1" \
		sh "$t/run-tests" >"$t/log" 2>/dev/null
}
# holds WHAT PATTERN...: each extended regular expression matches a line of
# the output.
holds() {
	local what=$1 p
	shift
	for p in "$@"; do
		grep -Eq -- "$p" "$t/log" && continue
		fail=$((fail + 1))
		echo "FAIL: $what: no line /$p/ in:"
		cat "$t/log"
		return
	done
	pass=$((pass + 1))
}

cat >"$t/ktap" <<'L'
[    6.36]     KTAP version 1
[    6.36]     # Subtest: vflipq_config
[    6.36]     # module: vflipq_test
[    6.36]     1..4
[    6.37]     ok 1 vflipq_config_test_defaults
[    6.38]     # vflipq_config_test_caso_tier: EXPECTATION FAILED at drivers/gpu/drm/vflipq/tests/vflipq_config_test.c:42
[    6.38]     Expected tier == 2, but
[    6.38]         tier == 1 (0x1)
[    6.38]     not ok 2 vflipq_config_test_caso_tier
[    6.39]         KTAP version 1
[    6.39]         # Subtest: vflipq_config_test_parse_mode
[    6.39]         ok 1 "640x480@60"
[    6.40] WARNING: CPU: 0 PID: 12 at drivers/gpu/drm/vflipq/vflipq_config.c:99 vflipq_config_parse+0x1/0x2 [vflipq]
[    6.40]         ok 2 "64x64@1"
[    6.41]     # vflipq_config_test_parse_mode: pass:2 fail:0 skip:0 total:2
[    6.41]     ok 3 vflipq_config_test_parse_mode
[    6.42]     ok 4 vflipq_config_test_preferred # SKIP no preferred mode
[    6.42] # vflipq_config: pass:2 fail:1 skip:1 total:4
[    6.42] not ok 1 vflipq_config
L
run 'kunit*'
holds "a KUnit run" \
	'^PASS kunit@vflipq_config\.vflipq_config_test_defaults \([0-9.]+s\)$' \
	'^FAIL kunit@vflipq_config\.vflipq_config_test_caso_tier \(0\.01s\)$' \
	'^    Expected tier == 2, but$' \
	'^FAIL kunit@vflipq_config\.vflipq_config_test_parse_mode \([0-9.]+s\) \[dmesg-warn\]$' \
	'^WARNING: CPU: 0 PID: 12 at drivers/gpu/drm/vflipq/vflipq_config\.c:99' \
	'^SKIP kunit@vflipq_config\.vflipq_config_test_preferred \([0-9.]+s\)$' \
	'^1 passed, 2 failed, 1 skipped$'
run 'kunit@vflipq_config.vflipq_config_test_defaults'
holds "one case selected" '^1 passed, 0 failed, 0 skipped$'
run 'kms_*'
holds "no KUnit selected" '^0 passed, 0 failed, 0 skipped$'
: >"$t/ktap"
run ''
holds "a module without cases" '^FAIL kunit@load \(0\.00s\) \[no test case ran\]$'
echo "run-tests-kunit: $pass passed, $fail failed"
[ "$fail" = 0 ]
