#!/bin/bash
# The IGT test documentation of igt-tests/tests/*.c, checked by IGT's own
# scripts/igt_doc.py (igt-tests/vflipq_test_config.json) against the built
# binaries, as IGT's meson does for its own tests ("--check-testlist"):
#
#   scripts/igt-doc-check.sh [BINDIR]     (default build/igt/bin)
#
# Per binary, one test: IGT_DIR/scripts/igt_doc.py finds no subtest of
# "<bin> --show-testlist" undocumented, no documented subtest the binary
# lacks, no mandatory field missing and no line it cannot parse; the
# listing equals "--list-subtests" (neither needs a DRM device); and each
# subtest's documented Description is its igt_describe() text ("--describe").
# One more: the binaries of igt-tests/Makefile (TESTS), of
# igt-tests/meson.build (the IGT-tree build) and the tests/*.c files agree.
# IGT_DIR: the IGT source tree (default: scripts/igt-lib.sh --paths, the
# unpacked tarball in the cache).  Prints "igt-doc: N passed, M failed".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

IGT_TESTS=$VFLIPQ_TOP/igt-tests
BINDIR=${1:-$VFLIPQ_TOP/build/igt/bin}
if [ -z "${IGT_DIR:-}" ]; then
	read -r IGT_DIR _ < <("$VFLIPQ_TOP/scripts/igt-lib.sh" --paths)
fi
IGT_DOC=$IGT_DIR/scripts/igt_doc.py
[ -f "$IGT_DOC" ] || die "$IGT_DOC: no such file (IGT_DIR=$IGT_DIR)"
CONFIG=$IGT_TESTS/vflipq_test_config.json

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# igt_doc.py --check-testlist reads <build>/tests/<bin> and <bin>.testlist.
mkdir -p "$work/tests"
pass=0 fail=0
bad() { echo "FAIL igt-doc: $*"; fail=$((fail + 1)); }

# Descriptions of "<bin> --describe" (SUB name file:line: then the text,
# wrapped) against those igt_doc.py expanded (--to-json).
cmp_descriptions() {
	python3 - "$1" "$2" "$3" <<'EOF'
import json, re, sys
bin_name, doc_json, describe = sys.argv[1:]
norm = lambda s: " ".join(s.split())
doc = {}
for test in json.load(open(doc_json)).values():
    for name, fields in test.items():
        if isinstance(fields, dict):
            doc[name.split("@")[-1]] = norm(fields.get("Description", ""))
got, cur = {}, None
for line in open(describe):
    m = re.match(r"SUB (\S+) \S+:$", line.rstrip("\n"))
    if m:
        cur = m.group(1)
        got[cur] = ""
    elif cur is not None:
        got[cur] += " " + line
bad = 0
for name in sorted(got):
    if name in doc and norm(got[name]) != doc[name]:
        print(f"{bin_name}@{name}: the documented description is not "
              f"the igt_describe() text:\n  doc:      {doc[name]}\n"
              f"  describe: {norm(got[name])}")
        bad = 1
sys.exit(bad)
EOF
}

# make list needs no IGT; meson.build's list is between "vflipq_progs = [" and "]".
make_list=$(make -s --no-print-directory -C "$IGT_TESTS" list | tr ' ' '\n' | sort)
meson_list=$(sed -n "/^vflipq_progs = \[/,/^\]/s/^[[:space:]]*'\([a-z0-9_]*\)',\$/\1/p" \
	"$IGT_TESTS/meson.build" | sort)
src_list=$(cd "$IGT_TESTS/tests" && ls -- *.c | sed 's/\.c$//' | sort)
if [ "$make_list" = "$meson_list" ] && [ "$make_list" = "$src_list" ]; then
	pass=$((pass + 1))
else
	bad "the test lists differ (Makefile TESTS, meson.build vflipq_progs, tests/*.c):"
	diff <(echo "$make_list") <(echo "$meson_list") | sed 's/^/  make vs meson: /' || true
	diff <(echo "$make_list") <(echo "$src_list") | sed 's/^/  make vs tests\/*.c: /' || true
fi

for t in $make_list; do
	bin=$BINDIR/$t
	if [ ! -x "$bin" ]; then
		bad "$t: no binary $bin (make igt-tests)"
		continue
	fi
	ln -s "$bin" "$work/tests/$t"
	if ! "$bin" --show-testlist >"$work/tests/$t.testlist" 2>"$work/$t.err" ||
	   ! "$bin" --list-subtests >"$work/$t.list" 2>>"$work/$t.err"; then
		bad "$t: listing its subtests failed: $(head -c 300 "$work/$t.err")"
		continue
	fi
	if ! diff -q <(sed "s/^/igt@$t@/" "$work/$t.list") "$work/tests/$t.testlist" >/dev/null; then
		bad "$t: --show-testlist and --list-subtests differ"
		continue
	fi
	log=$work/$t.doc
	rc=0
	python3 "$IGT_DOC" --config "$CONFIG" --files "$IGT_TESTS/tests/$t.c" \
		--check-testlist --igt-build-path "$work" \
		--to-json "$work/$t.json" >"$log" 2>&1 || rc=$?
	# Warnings (a mandatory field missing, a line it cannot parse) fail too.
	if [ $rc != 0 ] || grep -qE 'ERROR|Warning|not found|Error' "$log"; then
		bad "$t: igt_doc.py (status $rc):"
		sed 's/^/  /' "$log"
		continue
	fi
	"$bin" --describe >"$work/$t.describe" 2>/dev/null || true
	if ! cmp_descriptions "$t" "$work/$t.json" "$work/$t.describe"; then
		bad "$t: descriptions"
		continue
	fi
	pass=$((pass + 1))
done
echo "igt-doc: $pass passed, $fail failed"
[ "$fail" = 0 ]
