#!/bin/bash
# Instructions per pixel of each path of tests/unit/pixel_bench.c under
# callgrind: the inclusive count of bench_<path> over its rows' pixels,
# instructions (Ir) and conditional branches (Bc: under TCG each ends a
# translated block).
#   tests/unit/pixel_bench.sh [BINARY]   (default: builds one in /tmp)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
drv=$top/drivers/gpu/drm/vflipq
bin=${1:-}
if [ -z "$bin" ]; then
	bin=$(mktemp /tmp/pixel_bench.XXXXXX)
	gcc -O2 -g -std=gnu11 -DCONFIG_ARCH_SUPPORTS_INT128 -Wno-unused-parameter \
		-I"$top/tests/unit/shim" -I"$drv" -I"$top/tests/unit" \
		-I"$top/userspace/common" "$top/tests/unit/pixel_bench.c" \
		"$drv/vflipq_formats.c" -o "$bin"
fi
out=$(mktemp /tmp/pixel_bench.cg.XXXXXX)
valgrind --tool=callgrind --branch-sim=yes --callgrind-out-file="$out" "$bin" >/dev/null 2>&1
px=$((1920 * 64))
printf '%-28s %7s %6s\n' path Ir/px Bc/px
callgrind_annotate --inclusive=yes --show=Ir,Bc "$out" |
	sed -n 's/^ *\([0-9,]*\) ([^)]*) *\([0-9,]*\) .*:bench_\([a-z0-9_]*\) .*/\3 \1 \2/p' |
	tr -d , | sort -u |
	awk -v px=$px '{ printf "%-28s %7.2f %6.2f\n", $1, $2 / px, $3 / px }'
rm -f "$out"
