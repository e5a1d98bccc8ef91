#!/usr/bin/env python3
"""Judge igt_runner's results.json against the expected results, and tabulate.

  igt-results.py check RESULTS.json XFAILS_DIR DRIVER [--kernel SERIES] [--out FILE]
      Compare with XFAILS_DIR/DRIVER-{fails,flakes,skips}.txt as they apply
      to the test kernel SERIES (make's KERNEL=: 6.12, 7.2, debug, ...);
      print every difference and the counts; exit 1 on any difference.
  igt-results.py counts RESULTS.json
      Per-binary pass/fail/skip counts as JSON.
  igt-results.py table NAME=RESULTS.json...
      One Markdown table: binary, then pass/fail/skip per named run.
  igt-results.py merge OUT.json RESULTS.json...
      One results.json from runs of disjoint test sets (the whole suite run
      in chunks, one VM run each): their tests, a later run's result of a
      test replacing an earlier one's.

Expected-results files (drm-ci style): one test a line, a regular expression
matched against the whole name without "igt@" (kms_flip@basic-flip-vs-dpms,
kms_cursor_crc@cursor-onscreen-.*), then at least one blank and the reason
(required).  '#' starts a comment line.  A line may start with the test
kernels it applies to, in brackets: "[6.1 6.12] sw_sync@.*  reason" (what a
Debian kernel lacks and the source-built ones have); on any other kernel
the entry does not exist (it is neither matched nor reported stale).
  fails   the test must end in a failing result (fail, timeout, crash, warn,
          dmesg-warn, dmesg-fail, incomplete, abort)
  flakes  the test may pass or fail (not skip)
  skips   the test must skip
Any other test must pass.  An entry that matches no test, although a subtest
it names ran, is reported as stale, an unexpected pass of a listed failure as a difference:
the lists cannot rot.
"""
import json
import re
import sys

FAILING = {'fail', 'timeout', 'crash', 'warn', 'dmesg-warn', 'dmesg-fail',
           'incomplete', 'abort', 'notrun'}


# Kernel messages at warning level that igt_runner turns into dmesg-warn but
# that say nothing about the driver: under TCG the host deschedules the
# emulated CPUs, and the kernel reports the first hrtimer interrupt that ran
# long (pr_warn_once) and a clocksource watchdog whose reads of the two
# clocks were too far apart to compare (it skips that check).  Real warnings
# (WARNING:, BUG, ...) also fail the whole run in scripts/vm-run.sh.
TCG_NOISE = re.compile(r'hrtimer: interrupt took [0-9]+ ns|'
                       r'clocksource: Long readout interval, skipping watchdog check')
WARN_LEVEL = re.compile(r'<[0-4]>')


def result_of(t):
    r = t['result']
    if r in ('dmesg-warn', 'dmesg-fail'):
        warn = [l for l in t.get('dmesg', '').splitlines() if WARN_LEVEL.match(l)]
        if warn and all(TCG_NOISE.search(l) for l in warn):
            return 'pass' if r == 'dmesg-warn' else 'fail'
    return r


def read_tests(path):
    with open(path) as f:
        return json.load(f)['tests']


def results(tests):
    return {name[len('igt@'):] if name.startswith('igt@') else name: result_of(t)
            for name, t in tests.items()}


def load(path):
    return results(read_tests(path))


# The lines of a test's output that say why it failed.
WHY = re.compile(r'CRITICAL: (?!Test assertion failure function)|^Received signal|timeout', re.I)


def why(tests, name):
    """Up to four lines of @name's output that explain its failure."""
    t = tests.get('igt@' + name, {})
    text = t.get('err', '') + '\n' + t.get('out', '')
    lines = [l.strip() for l in text.splitlines() if WHY.search(l)]
    return lines[:4]


def kind(result):
    if result == 'pass':
        return 'pass'
    if result == 'skip':
        return 'skip'
    return 'fail'


def binary(name):
    return name.split('@')[0]


def split_top(pat):
    """Split a pattern at its top-level '@'; None if a top-level '|' spans them."""
    parts, depth, cur, i = [], 0, '', 0
    while i < len(pat):
        c = pat[i]
        if c == '\\' and i + 1 < len(pat):
            cur += pat[i:i + 2]
            i += 2
            continue
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
        elif depth == 0 and c == '|':
            return None
        elif depth == 0 and c == '@':
            parts.append(cur)
            cur = ''
            i += 1
            continue
        cur += c
        i += 1
    return parts + [cur]


def entry_scheduled(pat, ran_binaries, ran_subtests):
    """Whether a test the entry names was in the run: its subtest ran.

    A run of part of a binary (CI's subset, a chunk) ran only some of its
    subtests; an entry for another subtest of that binary is not stale, it
    was not asked for.  An entry whose subtest ran and that matched no
    result is (its dynamic subtests changed, or the subtest is gone).
    """
    parts = split_top(pat)
    if parts is None:
        return pat.split('@')[0] in ran_binaries
    b_rx = re.compile(parts[0])
    s_rx = re.compile(parts[1]) if len(parts) > 1 else None
    for b, *s in ran_subtests:
        if b_rx.fullmatch(b) and (s_rx is None or (s and s_rx.fullmatch(s[0]))):
            return True
    return False


def read_list(path, kernel):
    entries = []
    try:
        f = open(path)
    except FileNotFoundError:
        return entries
    with f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            kernels = None
            m = re.match(r'\s*\[([^]]*)\]\s*', line)
            if m:
                kernels = m.group(1).split()
                if not kernels:
                    sys.exit(f'{path}:{n}: empty kernel list')
                line = line[m.end():]
            if kernels is not None and kernel not in kernels:
                continue
            parts = line.split(None, 1)
            if len(parts) < 2 or not parts[1].strip():
                sys.exit(f'{path}:{n}: no reason given for {parts[0]}')
            try:
                rx = re.compile(parts[0])
            except re.error as e:
                sys.exit(f'{path}:{n}: bad regular expression {parts[0]}: {e}')
            entries.append((parts[0], rx, parts[1].strip(), f'{path}:{n}'))
    return entries


def check(results_path, xdir, driver, kernel, out=None):
    tests = read_tests(results_path)
    res = results(tests)
    lists = {k: read_list(f'{xdir}/{driver}-{k}.txt', kernel) for k in ('fails', 'flakes', 'skips')}
    ran_binaries = {binary(n) for n in res}
    diffs = []
    counts = {'pass': 0, 'expected-fail': 0, 'flake': 0, 'skip': 0}
    used = set()
    for name in sorted(res):
        r = res[name]
        exp = None
        for k in ('flakes', 'fails', 'skips'):
            for pat, rx, reason, where in lists[k]:
                if rx.fullmatch(name):
                    exp = k
                    used.add(where)
                    break
            if exp:
                break
        k = kind(r)
        if exp == 'flakes':
            ok = k != 'skip'
            counts['flake'] += ok
        elif exp == 'fails':
            ok = k == 'fail'
            counts['expected-fail'] += ok
        elif exp == 'skips':
            ok = k == 'skip'
            counts['skip'] += ok
        else:
            ok = k == 'pass'
            counts['pass'] += ok
        if not ok:
            want = {'flakes': 'pass or fail', 'fails': 'a failure',
                    'skips': 'skip'}.get(exp, 'pass')
            diffs.append(f'{name}: {r}, expected {want}')
            if k == 'fail':
                # (CI shows only the end of its log: the reason goes there)
                diffs += [f'  | {l}' for l in why(tests, name)]
    ran_subtests = {tuple(n.split('@')[:2]) for n in res}
    for k, entries in lists.items():
        for pat, rx, reason, where in entries:
            if where in used:
                continue
            if entry_scheduled(pat, ran_binaries, ran_subtests):
                diffs.append(f'{where}: stale {k} entry {pat}: no such test ran')
    ndiff = sum(not d.startswith('  | ') for d in diffs)
    lines = [f'{len(res)} tests: {counts["pass"]} passed, {counts["expected-fail"]} failed '
             f'as expected, {counts["flake"]} flakes, {counts["skip"]} skipped; '
             f'{ndiff} differences from {xdir}/{driver}-*.txt']
    lines += [d if d.startswith('  | ') else 'DIFF ' + d for d in diffs]
    text = '\n'.join(lines) + '\n'
    sys.stdout.write(text)
    if out:
        with open(out, 'w') as f:
            f.write(text)
    # The summary line every vflipq runner prints last.
    print(f'{counts["pass"] + counts["expected-fail"] + counts["flake"]} passed, '
          f'{ndiff} failed, {counts["skip"]} skipped')
    return 1 if ndiff else 0


def counts(path):
    c = {}
    for name, r in load(path).items():
        b = c.setdefault(binary(name), {'pass': 0, 'fail': 0, 'skip': 0})
        b[kind(r)] += 1
    return c


def table(runs):
    cs = [(n, counts(p)) for n, p in runs]
    bins = sorted(set().union(*(c.keys() for _, c in cs)))
    head = '| binary | ' + ' | '.join(f'{n} pass | {n} fail | {n} skip' for n, _ in cs) + ' |'
    print(head)
    print('| --- |' + ' ---: |' * (3 * len(cs)))
    tot = [[0, 0, 0] for _ in cs]
    for b in bins:
        row = []
        for i, (_, c) in enumerate(cs):
            if b in c:
                v = [c[b]['pass'], c[b]['fail'], c[b]['skip']]
                tot[i] = [x + y for x, y in zip(tot[i], v)]
                row += [str(x) for x in v]
            else:
                row += ['-'] * 3
        print(f'| {b} | ' + ' | '.join(row) + ' |')
    print('| **total** | ' + ' | '.join(f'**{x}**' for t in tot for x in t) + ' |')


def merge(out, paths):
    tests = {}
    for p in paths:
        with open(p) as f:
            tests.update(json.load(f)['tests'])
    with open(out, 'w') as f:
        json.dump({'name': 'merged', 'tests': tests}, f, indent=1, sort_keys=True)
    print(f'{out}: {len(tests)} tests from {len(paths)} runs')


def main(argv):
    if len(argv) >= 4 and argv[0] == 'check':
        out = argv[argv.index('--out') + 1] if '--out' in argv else None
        kernel = argv[argv.index('--kernel') + 1] if '--kernel' in argv else '6.12'
        return check(argv[1], argv[2], argv[3], kernel, out)
    if len(argv) == 2 and argv[0] == 'counts':
        json.dump(counts(argv[1]), sys.stdout, indent=1, sort_keys=True)
        print()
        return 0
    if len(argv) >= 2 and argv[0] == 'table':
        table([a.split('=', 1) for a in argv[1:]])
        return 0
    if len(argv) >= 3 and argv[0] == 'merge':
        merge(argv[1], argv[2:])
        return 0
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
