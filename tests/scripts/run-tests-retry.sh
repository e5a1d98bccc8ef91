#!/bin/bash
# The guest runner's retry rule (scripts/guest/run-tests, VFLIPQ_RETRY_FAILED),
# run on the host against fake test binaries: a subtest failing on an
# assertion once passes as "[flaky: ...]" with the retry and fails without
# it; one failing twice, or dying of a signal, fails either way.  The runner
# is run from a copy whose /out points into a temporary directory; modprobe
# and rmmod are stubs first in PATH, so nothing touches the host's kernel.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/vflipq-rt.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/bin" "$t/stub" "$t/out"
sed "s#/out#$t/out#g; s#/bin/vflipq-finish#true#; s#/etc/vflipq/dmesg-patterns#$top/scripts/guest/dmesg-patterns#" \
	"$top/scripts/guest/run-tests" >"$t/run-tests"
printf '#!/bin/sh\nexit 0\n' >"$t/stub/modprobe"
cp "$t/stub/modprobe" "$t/stub/rmmod"
cat >"$t/bin/fake" <<EOT
#!/bin/sh
[ "\$1" = --list-subtests ] && { printf 'once\\nalways\\nsignal\\nok\\n'; exit 0; }
case "\$2" in
once) [ -e "$t/once" ] && exit 0; : >"$t/once"; exit 98 ;;
always) exit 98 ;;
signal) kill -SEGV \$\$ ;;
ok) exit 0 ;;
esac
EOT
chmod +x "$t/stub/"* "$t/bin/fake"

pass=0 fail=0
# expect RETRY SUBTEST REGEX: the result line of SUBTEST matches REGEX.
expect() {
	local line
	rm -f "$t/once"
	line=$(PATH="$t/stub:$PATH" VFLIPQ_BIN_DIR="$t/bin" VFLIPQ_RETRY_FAILED=$1 \
	       VFLIPQ_TESTS="fake@$2" sh "$t/run-tests" 2>/dev/null | grep " fake@$2 ")
	if grep -Eq "$3" <<<"$line"; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		echo "FAIL: retry=$1 $2: got '$line', want /$3/"
	fi
}
expect 1 once '^PASS fake@once .*\[flaky: failed once, passed on the retry\]$'
expect 0 once '^FAIL fake@once \([0-9.]+s\)$'
expect 1 always '^FAIL fake@always .*\[failed twice\]$'
expect 1 signal '^FAIL fake@signal .*\[signal 11\]$'
expect 1 ok '^PASS fake@ok \([0-9.]+s\)$'
echo "run-tests-retry: $pass passed, $fail failed"
[ "$fail" = 0 ]
