#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Mutation check: does the suite see the faults it is meant to see?

Each mutant of tests/mutants.txt names a file, exact source snippets (each
must occur exactly once, or the tool fails: a snippet that drifted away is
noticed, not skipped) with their replacements, and the tests expected to
catch it.  Every mutant is applied to a scratch copy of the tree, built, and
run against its tests; it is killed when one of them fails, and survives
when they all pass.  Prints a table and the score; exit status 1 when a
mutant survives, does not build, or its tests do not run.

  scripts/mutate.py [--where host|kunit|vm|all] [--list] [NAME-GLOB...]

Host mutants run host tests ("present/X": userspace/libpresent/tests/X.c):
about a second each; a test still running after 10 s (a mutant that loops)
counts as failed, i.e. the mutant killed.  KUnit mutants run the KUnit
suites of drivers/gpu/drm/vflipq/tests their tests name (kunit.py filter
globs, "vflipq_fq_core.*") under UML (scripts/kunit.sh, its kernel built
incrementally: some 15 to 40 s each); a case that fails, a kernel that
crashes or a run over 120 s kills the mutant.  VM mutants build the module
and run VFLIPQ_TESTS=<their globs> in one VM boot each (scripts/vm-run.sh),
about a minute each plus the wait for the VM lock.
"""
import argparse
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST = os.path.join(TOP, "tests", "mutants.txt")
KEYS = {"where", "file", "tests", "why", "kernels"}


def unescape(s):
    return s.replace("\\n", "\n").replace("\\t", "\t")


def parse(path):
    mutants, cur = [], None
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = re.fullmatch(r"\[([a-z0-9][a-z0-9-]*)\]", line.strip())
            if m:
                cur = {"name": m.group(1), "edits": [], "line": n}
                mutants.append(cur)
                continue
            m = re.fullmatch(r"(\w+) = (.*)", line)
            if not m or cur is None:
                sys.exit(f"{path}:{n}: cannot parse: {line}")
            key, val = m.groups()
            if key == "find":
                cur["edits"].append([unescape(val), None])
            elif key == "replace":
                if not cur["edits"] or cur["edits"][-1][1] is not None:
                    sys.exit(f"{path}:{n}: replace without find")
                cur["edits"][-1][1] = unescape(val)
            elif key in KEYS:
                cur[key] = val
            else:
                sys.exit(f"{path}:{n}: unknown key {key}")
    names = set()
    for m in mutants:
        where = f"{path}:{m['line']}: mutant {m['name']}"
        if m["name"] in names:
            sys.exit(f"{where}: duplicate name")
        names.add(m["name"])
        for k in ("where", "file", "tests", "why"):
            if k not in m:
                sys.exit(f"{where}: no {k}")
        if m["where"] not in ("host", "kunit", "vm"):
            sys.exit(f"{where}: where must be host, kunit or vm")
        if not m["edits"] or any(r is None for _, r in m["edits"]):
            sys.exit(f"{where}: needs find/replace pairs")
        m["tests"] = m["tests"].split()
        m["kernels"] = m["kernels"].split() if "kernels" in m else None
        if m["kernels"] is not None and (not m["kernels"] or
                                         m["where"] != "vm"):
            sys.exit(f"{where}: kernels names test kernels of a vm mutant")
    return mutants


def apply(src, m):
    """The mutated text of m's file; fails loudly if a snippet drifted."""
    for find, repl in m["edits"]:
        n = src.count(find)
        if n != 1:
            raise SystemExit(f"mutant {m['name']}: snippet found {n} times "
                             f"in {m['file']} (must be exactly once):\n"
                             f"  {find!r}")
        src = src.replace(find, repl)
    return src


def run(cmd, cwd, log, env=None, timeout=None):
    with open(log, "a") as f:
        f.write(f"$ {' '.join(cmd)}\n")
        f.flush()
        try:
            return subprocess.run(cmd, cwd=cwd, stdout=f,
                                  stderr=subprocess.STDOUT, env=env,
                                  timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            f.write("timeout\n")
            return 124


def first_failure(path, start=0):
    """The first failure message in a test's output from offset @start:
    host tests print "FAIL file:line: ..." or "file:line: ... failed",
    igt tests a CRITICAL line after "Failed assertion"."""
    try:
        with open(path, errors="replace") as f:
            f.seek(start)
            lines = f.read().splitlines()
    except OSError:
        return ""
    for i, l in enumerate(lines):
        if "Failed assertion" in l:
            for m in lines[i + 1:i + 4]:
                if "CRITICAL:" in m and "Last errno" not in m:
                    return m.split("CRITICAL:", 1)[1].strip()
            return l.split("CRITICAL:", 1)[-1].strip()
        if l.startswith("FAIL ") and ":" in l or " failed: " in l \
                or "check failed" in l:
            return l.strip()
    return ""


def host_test(scratch, test, log):
    """Build and run one host test: 'pass', 'fail' or 'nobuild'.

    The scratch copy has its own meson build (no sanitizer, -O1: a mutant
    needs neither, and compiles faster); ninja rebuilds only what the
    mutant touched."""
    comp, name = test.split("/", 1)
    sub = {"present": "userspace/libpresent"}.get(comp)
    if sub is None:
        raise SystemExit(f"unknown host test {test}")
    b = os.path.join(scratch, "build", "meson-mutate")
    if not os.path.exists(os.path.join(b, "build.ninja")):
        if run(["meson", "setup", "-Db_sanitize=none", "-Doptimization=1",
                b, scratch], scratch, log) != 0:
            return "nobuild"
    target = os.path.join(b, sub, name)
    if run(["meson", "compile", "-C", b, name], scratch, log) != 0:
        return "nobuild"
    start = os.path.getsize(log)
    if run([target], scratch, log, timeout=10) == 0:
        return "pass"
    return "fail: " + first_failure(log, start)


def kunit_test(scratch, glob, log):
    """The KUnit cases GLOB selects under UML: 'pass', 'fail: why' or
    'nobuild'.  scripts/kunit.sh of the scratch copy copies its driver
    into the UML tree, so that only what the mutant changed is rebuilt."""
    start = os.path.getsize(log)
    env = dict(os.environ, VFLIPQ_TOP=scratch)
    rc = run([os.path.join(scratch, "scripts", "kunit.sh"), "--timeout=120",
              glob], scratch, log, env=env)
    with open(log, errors="replace") as f:
        f.seek(start)
        out = f.read().splitlines()
    if not any("Starting KUnit Kernel" in l for l in out):
        return "nobuild"
    if rc == 0:
        return "pass"
    for l in out:
        if any(k in l for k in ("EXPECTATION FAILED", "ASSERTION FAILED",
                                "check failed", "[CRASHED]", "timed out")):
            return "fail: " + l.split("] ", 1)[-1].strip()
    for l in out:
        if "[FAILED]" in l:
            return "fail: " + l.split("] ", 1)[-1].strip()
    return "fail: kunit.py exit status %d" % rc


def vm_tests(scratch, m, log):
    """Build module + tests, one VM boot: 'pass', 'fail', 'nobuild', 'error'."""
    env = dict(os.environ)
    if run(["make", "-s", "module", "igt-tests", "userspace"], scratch, log,
           env=env) != 0:
        return "nobuild", ""
    env["VFLIPQ_TESTS"] = " ".join(m["tests"])
    run(["scripts/vm-run.sh", "--job", "tests"], scratch, log, env=env)
    res = os.path.join(scratch, "out/results/latest/results.txt")
    if not os.path.exists(res):
        # A kernel report that stopped the guest (KASAN's panic) inside one
        # of the mutant's subtests is that subtest failing.
        probs = os.path.join(scratch, "out/results/latest/dmesg-problems.txt")
        if os.path.exists(probs):
            for line in open(probs):
                test, _, msg = line.rstrip("\n").partition("\t")
                if test != "-":
                    return "fail", f"{test}: {msg.strip()}"
        return "error", "no results"
    lines = [l.split() for l in open(res) if l.startswith(("PASS", "FAIL",
                                                           "SKIP"))]
    failed = [l[1] for l in lines if l[0] == "FAIL"]
    passed = [l[1] for l in lines if l[0] == "PASS"]
    if failed:
        why = first_failure(os.path.join(scratch,
                                         "out/results/latest/console.log"))
        return "fail", ",".join(failed) + (f": {why}" if why else "")
    if not passed or len(passed) != len(lines):
        return "error", "tests skipped or not run"
    return "pass", ""


def scratch_copy(dst):
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard",
                            "-z"], cwd=TOP, check=True,
                           stdout=subprocess.PIPE).stdout.split(b"\0")
    for f in files:
        f = f.decode()
        if not f or not os.path.isfile(os.path.join(TOP, f)):
            continue
        os.makedirs(os.path.join(dst, os.path.dirname(f)), exist_ok=True)
        shutil.copy2(os.path.join(TOP, f), os.path.join(dst, f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--where", default="all",
                    choices=("host", "kunit", "vm", "all"))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--keep", action="store_true",
                    help="keep the scratch copy")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    mutants = parse(LIST)
    # every snippet is checked against the real tree first, whatever runs
    for m in mutants:
        with open(os.path.join(TOP, m["file"])) as f:
            apply(f.read(), m)
    sel = [m for m in mutants
           if (a.where == "all" or m["where"] == a.where) and
           (not a.names or any(fnmatch.fnmatch(m["name"], g)
                               for g in a.names))]
    # A VM mutant whose tests only run on some kernels (async flips from
    # 7.2, KASAN on the debug kernel) is left out elsewhere, and says so.
    kernel = os.environ.get("KERNEL") or "6.12"
    for m in [m for m in sel if m["kernels"] and kernel not in m["kernels"]]:
        print(f"[mutate] {m['name']}: not on KERNEL={kernel} "
              f"(make mutate KERNEL={m['kernels'][0]})")
    sel = [m for m in sel if not m["kernels"] or kernel in m["kernels"]]
    if a.list:
        for m in sel:
            print(f"{m['name']:32} {m['where']:4} {m['file']}  "
                  f"[{' '.join(m['tests'])}]")
        return 0
    if not sel:
        sys.exit("mutate: no mutant selected")

    base = os.path.join(TOP, "build")
    os.makedirs(base, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="mutate.", dir=base)
    log = os.path.join(base, "mutate-%s.log" % a.where)
    open(log, "w").close()
    print(f"[mutate] {len(sel)} mutants, scratch {scratch}, log {log}",
          flush=True)
    scratch_copy(scratch)
    rows, bad = [], 0
    try:
        # The unmutated tree must pass what the mutants are judged by.
        host_tests = sorted({t for m in sel if m["where"] == "host"
                             for t in m["tests"]})
        for t in host_tests:
            r = host_test(scratch, t, log)
            if r != "pass":
                sys.exit(f"mutate: baseline {t}: {r} (see {log})")
        if any(m["where"] == "kunit" for m in sel):
            r = kunit_test(scratch, "*", log)
            if r != "pass":
                sys.exit(f"mutate: baseline KUnit run: {r} (see {log})")
        for m in sel:
            path = os.path.join(scratch, m["file"])
            with open(path) as f:
                orig = f.read()
            t0 = time.time()
            with open(log, "a") as f:
                f.write(f"\n=== mutant {m['name']}\n")
            with open(path, "w") as f:
                f.write(apply(orig, m))
            detail = ""
            try:
                if m["where"] == "host":
                    res = [host_test(scratch, t, log) for t in m["tests"]]
                    killers = [f"{t}: {r[6:]}" for t, r in zip(m["tests"], res)
                               if r.startswith("fail")]
                    if "nobuild" in res:
                        verdict = "NOBUILD"
                    elif killers:
                        verdict, detail = "killed", "; ".join(killers)
                    else:
                        verdict = "SURVIVED"
                elif m["where"] == "kunit":
                    # the first glob that fails it is enough
                    verdict = "SURVIVED"
                    for t in m["tests"]:
                        r = kunit_test(scratch, t, log)
                        if r == "nobuild":
                            verdict = "NOBUILD"
                            break
                        if r.startswith("fail"):
                            verdict, detail = "killed", f"{t}: {r[6:]}"
                            break
                else:
                    r, detail = vm_tests(scratch, m, log)
                    verdict = {"fail": "killed", "pass": "SURVIVED",
                               "nobuild": "NOBUILD"}.get(r, "ERROR")
            finally:
                with open(path, "w") as f:
                    f.write(orig)
            dt = time.time() - t0
            if verdict != "killed":
                bad += 1
            rows.append((m["name"], m["where"], verdict, dt, detail))
            print(f"  {m['name']:34} {m['where']:4} {verdict:8} "
                  f"{dt:6.1f}s  {detail}", flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    killed = sum(r[2] == "killed" for r in rows)
    print(f"mutate: {killed} of {len(rows)} mutants killed "
          f"(score {100 * killed // len(rows)}%)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
