#!/bin/bash
# The guest side of make mutate's VM mutants (scripts/guest/mutants) and
# mutate.py's verdicts from its console, run on the host: the script is run
# from a copy whose root, /mutants, /out, configfs, kernel log, module list
# and taint point into a temporary directory; modprobe, rmmod, dmesg and
# vflipq-run-tests (and rmdir) are stubs first in PATH (nothing touches the host's
# kernel).  A batch of a control and five mutants: one whose module and
# test binary must be in place while its tests run and put back after, one
# that fails a test, one whose module does not load, one that makes the
# kernel warn at its unload, one that leaves the kernel tainted; the one
# after that must not begin.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/vflipq-gm.XXXXXX")
trap 'rm -rf "$t"' EXIT
ko=lib/modules/k/extra/vflipq.ko
mkdir -p "$t"/{stub,out,cfs/dev1,root/igt/bin,root/lib/modules/k/extra}
echo base >"$t/root/$ko"
echo base >"$t/root/igt/bin/test"
echo "vflipq 1 0" >"$t/modules"
echo 12288 >"$t/tainted"
: >"$t/kmsg"
m=$t/mutants
for n in control both fails noload warns taints after; do
	mkdir -p "$m/$n/files/lib/modules/k/extra"
	echo "$n@*" >"$m/$n/tests"
	echo "$n" >>"$m/order"
	[ $n = control ] || echo "$n" >"$m/$n/files/$ko"
done
mkdir -p "$m/both/files/igt/bin"
echo both >"$m/both/files/igt/bin/test"

sed "s#^M=.*#M=$m#; s#^ROOT=.*#ROOT=$t/root#; s#^CFS=.*#CFS=$t/cfs#;
     s#^ORIG=.*#ORIG=$t/orig#; s#^KMSG=.*#KMSG=$t/kmsg#;
     s#^MODULES=.*#MODULES=$t/modules#; s#^TAINTED=.*#TAINTED=$t/tainted#;
     s#/out/#$t/out/#g; s#/etc/vflipq/dmesg-patterns#$top/scripts/guest/dmesg-patterns#" \
	"$top/scripts/guest/mutants" >"$t/mutants.sh"
# (a module in use while a configfs device exists, as in the kernel, where
# rmdir takes a device's directory with its attributes)
printf '#!/bin/sh\nrm -rf "$@"\n' >"$t/stub/rmdir"
cat >"$t/stub/rmmod" <<EOT
#!/bin/sh
[ -z "\$(ls "$t/cfs")" ] || exit 1
grep -q '^warns' "$t/root/$ko" && echo "<4>WARNING: CPU: 0 at vflipq_exit" >>"$t/kmsg"
grep -q '^taints' "$t/root/$ko" && echo 12800 >"$t/tainted"
sed -i '/^vflipq /d' "$t/modules"
EOT
cat >"$t/stub/modprobe" <<EOT
#!/bin/sh
grep -q '^noload' "$t/root/$ko" && { echo "modprobe: can't load module vflipq: Invalid argument"; exit 1; }
echo "vflipq 1 0" >>"$t/modules"
EOT
cat >"$t/stub/dmesg" <<EOT
#!/bin/sh
cat "$t/kmsg"
EOT
cat >"$t/stub/vflipq-run-tests" <<EOT
#!/bin/sh
n=\${VFLIPQ_TESTS%@*}
mkdir -p "$t/cfs/left-by-\$n"
echo "module \$(cat "$t/root/$ko") test \$(cat "$t/root/igt/bin/test")"
echo "<6>vflipq-run-tests: starting \$n@x" >>"$t/kmsg"
echo "<4>WARNING: inside a subtest" >>"$t/kmsg"
echo "<6>vflipq-run-tests: finished \$n@x" >>"$t/kmsg"
if [ "\$n" = fails ]; then
	echo "(\$n:1) CRITICAL: Failed assertion: ret == 0"
	echo "(\$n:1) CRITICAL: it returned 1"
	echo "FAIL \$n@x (0.10s)"
else
	echo "PASS \$n@x (0.10s)"
fi | tee "$t/out/results.txt"
EOT
chmod +x "$t/stub/"*
PATH="$t/stub:$PATH" sh "$t/mutants.sh" >"$t/console" 2>&1

pass=0 fail=0
# holds WHAT PATTERN...: each fixed-string PATTERN is a line of the console.
holds() {
	local what=$1 p
	shift
	for p in "$@"; do
		grep -qxF -- "$p" "$t/console" && continue
		fail=$((fail + 1))
		echo "FAIL: $what: no line '$p' in the console:"
		sed 's/^/  | /' "$t/console"
		return
	done
	pass=$((pass + 1))
}
holds "control" "VFLIPQ-MUTANT-BEGIN control" "module base test base"
holds "files in place" "module both test both"
holds "files put back" "module fails test base"
holds "load failure" "mutant: load failed: modprobe: can't load module vflipq: Invalid argument"
holds "warning at unload" "mutant: kernel warning: <4>WARNING: CPU: 0 at vflipq_exit"
holds "taint" "VFLIPQ-MUTANTS-STOP kernel tainted (12800) after taints"
if grep -q 'BEGIN after' "$t/console" || [ -n "$(ls "$t/cfs")" ] ||
	[ "$(cat "$t/root/$ko" "$t/root/igt/bin/test")" != "base"$'\n'"base" ]; then
	fail=$((fail + 1))
	echo "FAIL: after the taint: a mutant began, configfs devices or mutant files were left"
else
	pass=$((pass + 1))
fi
# mutate.py's verdicts from that console.
verdicts=$(python3 - "$top/scripts/mutate.py" "$t/console" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("mutate", sys.argv[1])
mutate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mutate)
entries, stop = mutate.read_console(sys.argv[2])
for name, (lines, secs) in entries.items():
    state, why, _ = mutate.judge(lines, secs)
    print(f"{name}: {state}: {why}")
PY
)
want="control: pass: 
both: pass: 
fails: fail: fails@x: it returned 1
noload: fail: load failed: modprobe: can't load module vflipq: Invalid argument
warns: fail: kernel warning: <4>WARNING: CPU: 0 at vflipq_exit
taints: pass: "
if [ "$verdicts" = "$want" ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	echo "FAIL: mutate.py's verdicts:"
	diff <(echo "$want") <(echo "$verdicts") | sed 's/^/  | /'
fi
echo "guest-mutants: $pass passed, $fail failed"
[ "$fail" = 0 ]
