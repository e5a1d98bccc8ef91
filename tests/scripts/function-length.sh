#!/bin/bash
# Host test: no function of the driver or of libpresent is longer than 80
# lines (Documentation/vflipq/driver.rst, "File map").  A function body is
# what lies between a "{" and a "}" alone at the start of a line, as kernel
# style writes functions.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$top" <<'PY'
import glob, os, sys

top = sys.argv[1]
LIMIT = 80
files = sorted(glob.glob(os.path.join(top, 'drivers/gpu/drm/vflipq/*.c')) +
               glob.glob(os.path.join(top, 'userspace/libpresent/src/*.c')))
passed = failed = 0
for f in files:
    lines = open(f).read().split('\n')
    start = None
    for i, line in enumerate(lines):
        if line == '{':
            start = i
        elif line == '}' and start is not None:
            n = i - start - 1
            name = lines[start - 1].strip()
            if '(' not in name and start >= 2:
                name = lines[start - 2].strip() + ' ' + name
            if n > LIMIT:
                print(f'FAIL function-length: {os.path.relpath(f, top)}:'
                      f'{start}: {name} is {n} lines (limit {LIMIT})')
                failed += 1
            else:
                passed += 1
            start = None
print(f'function-length: {passed} passed, {failed} failed')
sys.exit(1 if failed else 0)
PY
