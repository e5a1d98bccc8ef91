#!/bin/bash
# make igt: upstream IGT's KMS and core tests (Debian sid's igt-gpu-tools)
# under igt_runner in the test VM, judged against igt/xfails/.
#
#   scripts/igt.sh [SERIES]
#
# Env: DRIVER (vflipq, default, or vkms: the kernel's own vkms built out of
#      tree by scripts/bench-vkms.sh, as the baseline; its run is measured,
#      not judged), IGT_TESTS (all, default: every binary not in
#      igt/exclude.txt; ci: the subset of igt/ci.txt; or regexes on
#      igt@binary@subtest, space separated), IGT_TIMEOUT (per test, s,
#      default 120), VM_TIMEOUT (default 14400 for all, 1200 otherwise),
#      IGT_NAME (names the run's copy in out/igt/ instead of all, ci, custom).
# Results: out/results/<date>-<kver>-igt/ (console, dmesg, igt/results.json),
# copied to out/igt/<driver>-<kver>-<IGT_NAME or all|ci|custom>.json; out/igt/<driver>-summary.txt
# (the differences from the expected results) and out/igt/table.md (vflipq
# against vkms, from the newest run of each on this kernel and test set).
# Fails on any difference from igt/xfails/vflipq-{fails,flakes,skips}.txt,
# on any kernel warning in the guest (the VM harness) and when the VM run
# did not finish.  The last line is "N passed, M failed, K skipped": passed
# counts the tests with their expected pass, failure or flake result,
# failed the differences and VM problems.
#
#   scripts/igt.sh --cpio   only print the archives that give any VM run the
#                           IGT sysroot and vflipq-igt (make vm-cmd IGT=1)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --cpio ]; then
	tool=${BUILD:-$VFLIPQ_TOP/build}/igt-tool
	rm -rf "$tool"
	mkdir -p "$tool/bin"
	install -m 755 "$VFLIPQ_TOP/scripts/guest/igt" "$tool/bin/vflipq-igt"
	(cd "$tool" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$tool.cpio"
	echo "$("$VFLIPQ_TOP/scripts/igt-sysroot.sh") $tool.cpio"
	exit 0
fi

series=${1:-${KERNEL:-6.12}}
driver=${DRIVER:-vflipq}
tests=${IGT_TESTS:-all}
BUILD=${BUILD:-$VFLIPQ_TOP/build}
OUT=${OUT:-$VFLIPQ_TOP/out}
IGTDIR=$VFLIPQ_TOP/igt
t0=$(now_s)
case $driver in vflipq|vkms) ;; *) die "DRIVER=$driver: vflipq or vkms" ;; esac
eval "$("$VFLIPQ_TOP/scripts/kernel.sh" env "$series")"

cpio=$("$VFLIPQ_TOP/scripts/igt-sysroot.sh")
extra_ko=""
[ "$driver" = vkms ] && extra_ko=$("$VFLIPQ_TOP/scripts/bench-vkms.sh" "$series")

work=$(mktemp -d "$BUILD/igt.XXXXXX")
trap 'rm -rf "$work"' EXIT
j=$work/job
mkdir -p "$j/bin" "$j/igt-job"
install -m 755 "$VFLIPQ_TOP/scripts/guest/igt" "$j/bin/vflipq-igt"
# exclude.txt: a binary regex, then the reason.
sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$IGTDIR/exclude.txt" |
	awk '{ print "^igt@(" $1 ")(@|$)" }' >"$j/igt-job/exclude"
# exclude-vkms.txt: subtests (binary@subtest regexes) the baseline cannot survive.
[ "$driver" = vkms ] && sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$IGTDIR/exclude-vkms.txt" |
	awk '{ print "^igt@" $1 "(@|$)" }' >>"$j/igt-job/exclude"
case $tests in
all) echo '^igt@' >"$j/igt-job/include"; tag=all ;;
ci) sed -e '/^[[:space:]]*#/d' -e '/^[[:space:]]*$/d' "$IGTDIR/ci.txt" |
	awk '{ print "^igt@" $1 "$" }' >"$j/igt-job/include"; tag=ci ;;
*) # split on blanks, never globbed: a regex such as kms_flip@.* stays as is
	read -r -a pats <<<"$tests"
	printf '%s\n' "${pats[@]}" >"$j/igt-job/include"; tag=custom ;;
esac
tag=${IGT_NAME:-$tag}
# The binaries the patterns can select, when each pattern names them
# (^igt@name@..., ^igt@(a|b)@..., igt@name@...): igt_runner then lists the
# subtests of those only, instead of all 300 (100 s under TCG on an idle
# host, over 240 s, the VM's silence limit, beside three CPU hogs).  An
# unanchored name@... (kms_flip@dpms-.*, as a user types it) is searched
# in igt@binary@subtest: it selects the binaries whose name ends in it
# ("*name": the guest expands it).
awk '{
	p = $0; suffix = 0
	if (p ~ /^\^?igt@/) sub(/^\^?igt@/, "", p)
	else if (p ~ /^[a-z0-9_]+@/) suffix = 1
	else { bad = 1; exit }
	sub(/@.*$/, "", p); sub(/\$$/, "", p)
	# only whole names alternate: syncobj_(a|b) would split into "b"
	if (p ~ /[()]/ && p !~ /^\([a-z0-9_|]+\)$/) { bad = 1; exit }
	gsub(/[()]/, "", p)
	if (p !~ /^[a-z0-9_|]+$/) { bad = 1; exit }
	n = split(p, b, "|"); for (i = 1; i <= n; i++) print (suffix ? "*" : "") b[i]
} END { if (bad) print "-" }' "$j/igt-job/include" | sort -u >"$j/igt-job/binaries"
grep -qx -- - "$j/igt-job/binaries" && rm "$j/igt-job/binaries"
(cd "$j" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$work/job.cpio"

if [ "$tests" = all ]; then vmt=${VM_TIMEOUT:-14400}; else vmt=${VM_TIMEOUT:-1200}; fi
log=$work/vm.log
set +e
EXTRA_KO="$extra_ko" VM_EXTRA_CPIO="$cpio $work/job.cpio" VM_TIMEOUT=$vmt \
	IGT_DRIVER=$driver IGT_TIMEOUT=${IGT_TIMEOUT:-120} \
	"$VFLIPQ_TOP/scripts/vm-run.sh" --kernel "$series" --job igt 2>&1 |
	tee "$log" | grep -Ev '^[0-9]+ passed, '
set -e
resdir=$(sed -n 's/^results: \([^ ]*\) .*/\1/p' "$log" | tail -n1)
vmfail=$(grep -c '^FAIL vm: ' "$log" || true)
json=$resdir/igt/results.json
if [ -z "$resdir" ] || [ ! -f "$json" ]; then
	echo "igt: no results.json from the VM (see ${resdir:-the console above})"
	echo "0 passed, $((vmfail > 0 ? vmfail : 1)) failed, 0 skipped"
	exit 1
fi
mkdir -p "$OUT/igt"
cp "$json" "$OUT/igt/$driver-$KVER-$tag.json"

rc=0
if [ "$driver" = vflipq ]; then
	set +e
	python3 "$VFLIPQ_TOP/scripts/igt-results.py" check "$json" "$IGTDIR/xfails" vflipq \
		--kernel "$series" --out "$OUT/igt/vflipq-summary.txt" >"$work/check.txt"
	rc=$?
	set -e
	grep -v '^[0-9]* passed, ' "$work/check.txt"
	sumline=$(tail -n1 "$work/check.txt")
else
	python3 "$VFLIPQ_TOP/scripts/igt-results.py" counts "$json" >"$OUT/igt/vkms-counts.json"
	read -r p f s <<<"$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1])).values(); print(*(sum(x[k] for x in c) for k in ("pass","fail","skip")))' "$OUT/igt/vkms-counts.json")"
	echo "igt: vkms (baseline, not judged): $p passed, $f failed, $s skipped"
	sumline="$p passed, $f failed, $s skipped"
fi
a=$OUT/igt/vflipq-$KVER-$tag.json b=$OUT/igt/vkms-$KVER-$tag.json
if [ -f "$a" ] && [ -f "$b" ]; then
	python3 "$VFLIPQ_TOP/scripts/igt-results.py" table "vflipq=$a" "vkms=$b" >"$OUT/igt/table.md"
	echo "igt: vflipq against vkms ($KVER, $tag): $OUT/igt/table.md"
fi
[ "$vmfail" -gt 0 ] && rc=1
read -r sp _ sf _ ss _ <<<"${sumline//,/}"
[ "$driver" = vkms ] && sf=0 # the baseline's failures are data, not ours
echo "igt: $driver on $KVER, tests '$tests': results $resdir [$(elapsed "$t0")s]"
echo "$sp passed, $((sf + vmfail)) failed, $ss skipped"
exit $rc
