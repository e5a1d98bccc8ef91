#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Host test of scripts/igt-results.py "check": how a results.json is judged
against expected-results files, kernel-qualified entries included.  Prints
"N passed, M failed" (scripts/host-tests.sh counts it) and exits 1 on a
failure."""
import importlib.util
import io
import json
import os
import sys
import tempfile
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'igt_results', os.path.join(HERE, '..', '..', 'scripts', 'igt-results.py'))
ir = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ir)

passed = failed = 0


def judge(results, skips='', fails='', flakes='', kernel='6.12'):
    """Differences (list of DIFF lines) of @results against the lists."""
    with tempfile.TemporaryDirectory() as d:
        for k, text in (('skips', skips), ('fails', fails), ('flakes', flakes)):
            with open(f'{d}/vflipq-{k}.txt', 'w') as f:
                f.write(text)
        rj = {'tests': {f'igt@{n}': {'result': r} for n, r in results.items()}}
        with open(f'{d}/results.json', 'w') as f:
            json.dump(rj, f)
        out = io.StringIO()
        with redirect_stdout(out):
            rc = ir.check(f'{d}/results.json', d, 'vflipq', kernel)
    diffs = [l[5:] for l in out.getvalue().splitlines() if l.startswith('DIFF ')]
    assert (rc != 0) == bool(diffs), (rc, diffs)
    return diffs


def case(name, got, want):
    global passed, failed
    if got == want:
        passed += 1
    else:
        failed += 1
        print(f'FAIL {name}: got {got!r}, want {want!r}')


SW = '[6.1 6.12] sw_sync@.*\tno CONFIG_SW_SYNC in Debian\'s kernels\n'
case('unlisted pass', judge({'a@b': 'pass'}), [])
case('unlisted skip', judge({'a@b': 'skip'}), ['a@b: skip, expected pass'])
case('listed skip', judge({'a@b': 'skip'}, skips='a@b\twhy\n'), [])
case('listed skip runs', judge({'a@b': 'pass'}, skips='a@b\twhy\n'),
     ['a@b: pass, expected skip'])
d = judge({'a@b@pipe-a': 'pass'}, skips='a@b@pipe-z\twhy\n')
case('stale entry: its subtest ran, the entry matched nothing',
     len(d) == 1 and 'stale skips entry a@b@pipe-z' in d[0], True)
case('entry of a subtest that did not run: not stale',
     judge({'a@b': 'pass'}, skips='a@c\twhy\n'), [])
case('entry of a binary that did not run: not stale', judge({'a@b': 'pass'}, skips='x@c\twhy\n'), [])
case('kernel entry applies', judge({'sw_sync@x': 'skip'}, skips=SW, kernel='6.12'), [])
case('kernel entry applies (6.1)', judge({'sw_sync@x': 'skip'}, skips=SW, kernel='6.1'), [])
case('kernel entry absent elsewhere: pass judged as pass',
     judge({'sw_sync@x': 'pass'}, skips=SW, kernel='7.2'), [])
case('kernel entry absent elsewhere: a skip is a difference',
     judge({'sw_sync@x': 'skip'}, skips=SW, kernel='7.2'), ['sw_sync@x: skip, expected pass'])
case('kernel entry absent elsewhere: never stale',
     judge({'sw_sync@y': 'pass'}, skips='[6.12] sw_sync@x\twhy\n', kernel='debug'), [])
case('dmesg-warn is a failure', judge({'a@b': 'dmesg-warn'}), ['a@b: dmesg-warn, expected pass'])
try:
    judge({'a@b': 'pass'}, skips='[] a@b\twhy\n')
    case('empty kernel list refused', 'accepted', 'exit')
except SystemExit:
    case('empty kernel list refused', 'exit', 'exit')
print(f'{passed} passed, {failed} failed')
sys.exit(1 if failed else 0)
