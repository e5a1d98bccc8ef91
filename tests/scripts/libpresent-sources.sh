#!/bin/bash
# Host test: igt-tests/meson.build, which builds vflipq's tests inside an
# IGT tree, compiles libpresent from the same sources as libpresent's own
# build (userspace/libpresent/meson.build) and as the directory holds: a
# file added to one list only links in one build and not the other.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
python3 - "$top" <<'PY'
import os, re, sys

top = sys.argv[1]
src = os.path.join(top, 'userspace/libpresent/src')
on_disk = {f[:-2] for f in os.listdir(src) if f.endswith('.c')}
own = set(re.findall(r"'src/([a-z_]+)\.c'",
                     open(os.path.join(top, 'userspace/libpresent/meson.build')).read()))
text = open(os.path.join(top, 'igt-tests/meson.build')).read()
m = re.search(r"foreach s : \[([^\]]*)\]\s*\n\s*vflipq_present_src", text)
igt = set(re.findall(r"'([a-z_]+)'", m.group(1))) if m else set()
passed = failed = 0
for name, got in (('userspace/libpresent/meson.build', own),
                  ('igt-tests/meson.build', igt)):
    if got == on_disk:
        passed += 1
    else:
        failed += 1
        print('FAIL libpresent-sources: %s: missing %s, unknown %s' %
              (name, sorted(on_disk - got), sorted(got - on_disk)))
print('libpresent-sources: %d passed, %d failed' % (passed, failed))
sys.exit(1 if failed else 0)
PY
