#!/bin/bash
# The guest runner (scripts/guest/run-tests) under the real igt_runner (IGT
# 2.2 from the cache, scripts/igt-lib.sh), run on the host against a fake
# test binary that speaks IGT's output protocol: its verdicts from
# results.json, and the retry rule (VFLIPQ_RETRY_FAILED): a subtest failing
# on an assertion once passes as "[flaky: ...]" with the retry and fails
# without it; one failing twice, or crashing, fails either way; a test
# exiting with IGT's abort status ends the run with an ABORT line.  The runner
# is run from a copy whose /out, state directory, console and kernel log
# point into a temporary directory (the host's kernel log is still read by
# igt_runner, never written); modprobe and rmmod are stubs first in PATH, so
# nothing touches the host's kernel.  No abort on a taint: the host's own
# kernel may be tainted.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
read -r _ igt_build <<<"$("$top/scripts/igt-lib.sh" --paths 2>/dev/null)"
runner=${igt_build:+$igt_build/runner/igt_runner}
if [ -z "$runner" ] || [ ! -x "$runner" ]; then
	echo "run-tests-retry: no igt_runner (make deps builds it)"
	echo "run-tests-retry: 0 passed, 1 failed"
	exit 1
fi
t=$(mktemp -d "${TMPDIR:-/tmp}/vflipq-rt.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bin" "$t/stub" "$t/out"
sed "s#/out#$t/out#g; s#^KMSG=.*#KMSG=$t/kmsg#; s#^CONSOLE=.*#CONSOLE=$t/console#;
     s#^STATE=.*#STATE=$t/state#; s#/etc/vflipq/dmesg-patterns#$top/scripts/guest/dmesg-patterns#" \
	"$top/scripts/guest/run-tests" >"$t/run-tests"
printf '#!/bin/sh\nexit 0\n' >"$t/stub/modprobe"
cp "$t/stub/modprobe" "$t/stub/rmmod"
# What libigt prints for a subtest (without igt_runner's socket: the runner
# then reads stdout and the exit status), and its --hook (the pre-test and
# post-test events only; not after a crash).
cat >"$t/bin/fake" <<EOT
#!/bin/sh
[ "\$1" = --list-subtests ] && { printf 'once\\nalways\\nsignal\\nabort\\nok\\n'; exit 0; }
hook=\$(printf '%s\\n' "\$@" | sed -n '/^--hook\$/{n;s/^[^:]*://p}')
export IGT_HOOK_TEST=fake
trap 'IGT_HOOK_EVENT=post-test sh -c "\$hook"' EXIT
IGT_HOOK_EVENT=pre-test sh -c "\$hook"
echo "IGT-Version: 2.2-fake"
echo "Starting subtest: \$2"
case "\$2" in
once) if [ -e "$t/once" ]; then echo "Subtest once: SUCCESS (0.010s)"; exit 0; fi
      : >"$t/once"
      echo "(fake:1) CRITICAL: Failed assertion: once" >&2
      echo "Subtest once: FAIL (0.010s)"; exit 98 ;;
always) echo "(fake:1) CRITICAL: Failed assertion: always" >&2
      echo "Subtest always: FAIL (0.010s)"; exit 98 ;;
signal) echo "Received signal SIGSEGV." >&2
      echo "Subtest signal: CRASH (0.010s)"; trap - EXIT; kill -SEGV \$\$ ;;
abort) echo "Subtest abort: ABORT (0.010s)"; exit 112 ;;
ok) echo "Subtest ok: SUCCESS (0.010s)"; exit 0 ;;
esac
EOT
chmod +x "$t/stub/"* "$t/bin/fake"

pass=0 fail=0
# expect RETRY SUBTEST REGEX: the result line of SUBTEST matches REGEX.
expect() {
	local line
	rm -f "$t/once"
	PATH="$t/stub:$PATH" VFLIPQ_BIN_DIR="$t/bin" VFLIPQ_RETRY_FAILED=$1 \
		VFLIPQ_IGT_RUNNER="$runner" VFLIPQ_ABORT_ON_OOPS=0 \
		VFLIPQ_TESTS="fake@$2" sh "$t/run-tests" >"$t/log" 2>/dev/null
	line=$(grep " fake@$2 " "$t/log")
	if grep -Eq "$3" <<<"$line"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: retry=$1 $2: got '$line', want /$3/"
	fi
}
expect 1 once '^PASS fake@once .*\[flaky: failed once, passed on the retry\]$'
expect 0 once '^FAIL fake@once \([0-9.]+s\)$'
expect 1 always '^FAIL fake@always \([0-9.]+s\) \[failed twice\]$'
expect 1 signal '^FAIL fake@signal .*\[crash: SIGSEGV\]$'
expect 1 ok '^PASS fake@ok \([0-9.]+s\)$'
# holds WHAT FILE PATTERN...: each fixed-string PATTERN is a line of FILE.
holds() {
	local what=$1 file=$2 p
	shift 2
	for p in "$@"; do
		grep -qxF -- "$p" "$file" 2>/dev/null && continue
		fail=$((fail + 1))
		echo "FAIL: $what: no line '$p' in $file"
		return
	done
	pass=$((pass + 1))
}
# The hook's kernel log markers name the subtest; IGT's results.json is there.
holds "hook markers" "$t/kmsg" '<6>vflipq-run-tests: starting fake@ok' \
	'<6>vflipq-run-tests: finished fake@ok'
holds "results.json" "$t/out/igt/results.json" '    "igt@fake@ok":{'
# A test exiting with IGT's abort status ends igt_runner's run.
expect 1 abort '^FAIL fake@abort .*\[abort\]$'
holds "abort" "$t/log" \
	'ABORT: Test exited with IGT_EXIT_ABORT (after fake (abort)); remaining tests not run' \
	'FAIL runner@aborted (0.00s)'
echo "run-tests-retry: $pass passed, $fail failed"
[ "$fail" = 0 ]
