#!/bin/bash
# Compile the libpresent example of README.md, so that the code a newcomer
# copies from there keeps building against the public headers.
#
#   scripts/readme-example.sh [README]
#
# Takes the first fenced ```c block after the line
# "<!-- readme-example: present -->" of README (default: README.md at the
# top of the tree), writes it to a temporary .c file and compiles it with
# $CC (default cc) -std=c11 -Wall -Wextra -Werror -c against
# userspace/libpresent/include.  When a built libpresent.so is there
# (build/meson, which "meson test" has just rebuilt, else build/userspace),
# the object is also linked against it: every function the example calls
# must be exported.  Without one, compiling is the whole check.
# Prints "readme-example: 1 passed, 0 failed" (scripts/host-tests.sh counts
# it as one test) or the compiler's messages and "readme-example: 0 passed,
# 1 failed"; exit status 1 on failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

readme=${1:-$VFLIPQ_TOP/README.md}
BUILD=${BUILD:-$VFLIPQ_TOP/build}
CC=${CC:-cc}
marker='<!-- readme-example: present -->'

failed() {
	printf '[vflipq] error: README example: %s\n' "$*" >&2
	echo "readme-example: 0 passed, 1 failed"
	exit 1
}

[ -f "$readme" ] || failed "$readme not found"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vflipq-readme.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src=$tmp/present-example.c

# The marker, then (blank lines allowed) a ```c line, then the code up to
# the closing ```.  awk exits 2 if the block never closes.
awk -v marker="$marker" '
	state == 0 && $0 == marker { state = 1; next }
	state == 1 && /^```c[ \t]*$/ { state = 2; next }
	state == 1 && !/^[ \t]*$/ { exit 3 }
	state == 2 && /^```[ \t]*$/ { state = 3; exit 0 }
	state == 2 { print }
	END { if (state == 2) exit 2; if (state < 2) exit 3 }
' "$readme" >"$src" || {
	case $? in
	2) failed "the \`\`\`c block after '$marker' in $readme is not closed" ;;
	*) failed "no '$marker' line followed by a \`\`\`c block in $readme" ;;
	esac
}
[ -s "$src" ] || failed "the \`\`\`c block after '$marker' in $readme is empty"
# Compiler messages name the README's lines, not the temporary file's.
start=$(grep -nFx -- "$marker" "$readme" | head -n1 | cut -d: -f1)
start=$(awk -v s="$start" 'NR > s && /^```c/ { print NR; exit }' "$readme")
sed -i "1i #line $((start + 1)) \"$readme\"" "$src"

inc=$VFLIPQ_TOP/userspace/libpresent/include
if ! "$CC" -std=c11 -Wall -Wextra -Werror -I"$inc" -c "$src" -o "$tmp/example.o" 2>"$tmp/cc.log"; then
	cat "$tmp/cc.log" >&2
	failed "the libpresent example in $readme does not compile ($CC -std=c11 -Wall -Wextra -Werror -I$inc)"
fi
how="compiled"
lib=""
for d in "$BUILD/meson/userspace/libpresent" "$BUILD/userspace/lib"; do
	if [ -e "$d/libpresent.so" ]; then lib=$d; break; fi
done
if [ -n "$lib" ]; then
	if ! "$CC" "$tmp/example.o" -L"$lib" -lpresent -o "$tmp/example" 2>"$tmp/ld.log"; then
		cat "$tmp/ld.log" >&2
		failed "the libpresent example in $readme does not link against $lib/libpresent.so"
	fi
	how="compiled and linked against $lib/libpresent.so"
else
	how="compiled (no built libpresent.so to link against: make userspace)"
fi
msg "README example: $how"
echo "readme-example: 1 passed, 0 failed"
