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
crashes or a run over 120 s kills the mutant.  VM mutants are built one
after the other (module, tests, userspace; what differs from the unmutated
build is kept) and run twenty to a boot (scripts/vm-run.sh --job mutants,
scripts/guest/mutants): the guest first runs the unmutated build against
all of their tests (the control), then for each mutant puts its files in
place, loads its vflipq.ko, runs its tests and unloads it again.  A mutant
is killed when one of its tests fails, its module does not load, the
kernel warns outside of its subtests, or it takes the guest down (a panic
or hang, named by the console); a mutant killed by a test the control
failed too is an ERROR.  One that took the guest down or left the kernel
tainted ends the boot, and the mutants after it go to the next one.
"""
import argparse
import contextlib
import filecmp
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
    """The first failure message in a test's output from offset @start."""
    try:
        with open(path, errors="replace") as f:
            f.seek(start)
            return first_failure_in(f.read().splitlines())
    except OSError:
        return ""


def first_failure_in(lines):
    """The first failure message in a test's output lines: host tests
    print "FAIL file:line: ..." or "file:line: ... failed", igt tests a
    CRITICAL line after "Failed assertion"."""
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


# VM mutants per boot.  Each boot also runs the control (the unmutated
# build against the tests of all of them), so fewer would cost more boots,
# controls and waits for the VM lock; more would hold that lock longer
# than a "make check" (a mutant takes some 10 s of the guest).
BATCH = 20


def vm_build(scratch, log):
    return run(["make", "-s", "module", "igt-tests", "userspace"], scratch,
               log) == 0


def vm_files(scratch):
    """What the VM job takes from a build: {path in the guest: file}."""
    env = subprocess.run([os.path.join(scratch, "scripts", "kernel.sh"),
                          "env", os.environ.get("KERNEL") or "6.12"],
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    kver = re.search(r"^KVER=(.*)$", env, re.M).group(1)
    files = {f"lib/modules/{kver}/extra/vflipq.ko": os.path.join(
        scratch, "build", kver, "module", "drivers", "gpu", "drm", "vflipq",
        "vflipq.ko")}
    for src, dst in (("build/igt/bin", "igt/bin"),
                     ("build/userspace/bin", "usr/bin")):
        d = os.path.join(scratch, src)
        for n in sorted(os.listdir(d)):
            f = os.path.join(d, n)
            if os.path.isfile(f) and os.access(f, os.X_OK):
                files[f"{dst}/{n}"] = f
    return files


def same_build(a, b):
    """Whether two files are the same build output.  A module's BTF is left
    out: pahole writes it in no fixed order, and an unmutated file rebuilt
    (the mutant before restored) gives the module other bytes there."""
    if a.endswith(".ko"):
        with tempfile.TemporaryDirectory() as t:
            for i, f in enumerate((a, b)):
                subprocess.run(["objcopy", "--remove-section=.BTF", f,
                                os.path.join(t, str(i))], check=True)
            return filecmp.cmp(os.path.join(t, "0"), os.path.join(t, "1"),
                               shallow=False)
    return filecmp.cmp(a, b, shallow=False)


def vm_stage(files, dst, base=None):
    """Copy the build's files under dst (modules without their debug
    information: a boot takes twenty); with base (a former stage), keep only
    those that differ from it."""
    for g, f in files.items():
        out = os.path.join(dst, g)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        if f.endswith(".ko"):
            subprocess.run(["strip", "--strip-debug", "-o", out, f],
                           check=True)
        else:
            shutil.copy2(f, out)
        if base is not None and same_build(out, os.path.join(base, g)):
            os.unlink(out)


def read_console(path):
    """A mutants job's console (scripts/guest/mutants): {entry: [lines,
    seconds or None when it never ended]} in the order they began, and why
    the guest stopped before the end of its list ("" when it did not)."""
    entries, cur, stop = {}, None, ""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        lines = []
    for l in lines:
        m = re.search(r"VFLIPQ-MUTANT-(BEGIN|END) (\S+)(?: ([0-9.]+))?", l)
        if m and m.group(1) == "BEGIN":
            cur = m.group(2)
            entries[cur] = [[], None]
        elif m and m.group(2) in entries:
            entries[m.group(2)][1] = float(m.group(3) or 0)
            cur = None
        elif l.startswith("VFLIPQ-MUTANTS-STOP "):
            stop = l.split(" ", 1)[1]
        elif cur:
            entries[cur][0].append(l)
    return entries, stop


def judge(lines, secs):
    """An entry's verdict from its console lines: ('pass' | 'fail' |
    'error', why, the subtests that failed).  It fails when one of its
    subtests fails, vflipq does not load, the kernel warns outside of its
    subtests, or the guest died during it (a panic, a hang: secs is None)."""
    if secs is None:
        running, why = "", ""
        for l in lines:
            m = re.search(r"\[\d+/\d+\] (\S+) \((\S+)\)", l)
            if m:
                running = f"{m.group(1)}@{m.group(2)}"
            m = re.search(r"(Kernel panic - not syncing.*|BUG: .*|Oops.*|"
                          r"general protection fault.*|"
                          r"\[vflipq\] (no console output|the guest reports)"
                          r"[^:]*)", l)
            if m and not why:
                why = m.group(1).strip()
        if not why:
            return "error", "the VM stopped during it (VM_TIMEOUT?)", []
        return "fail", f"guest died{' in ' + running if running else ''}: " \
            f"{why}", [running] if running else []
    for l in lines:
        if l.startswith("mutant: load failed: "):
            return "fail", l[len("mutant: "):], []
    res = [l.split() for l in lines if re.match(r"(PASS|FAIL|SKIP) \S+ \(",
                                                l)]
    failed = [r[1] for r in res if r[0] == "FAIL"]
    passed = [r[1] for r in res if r[0] == "PASS"]
    if failed:
        why = first_failure_in(lines) or kernel_report(lines)
        return "fail", ",".join(failed) + (f": {why}" if why else ""), failed
    warn = [l for l in lines if l.startswith("mutant: kernel warning: ")]
    if warn:
        return "fail", warn[0][len("mutant: "):], []
    if not passed or len(passed) != len(res):
        return "error", "tests skipped or not run", []
    return "pass", "", []


def kernel_report(lines):
    """The first kernel report run-tests printed for a failed subtest."""
    for i, l in enumerate(lines):
        if l.startswith("run-tests: kernel warnings during ") and \
                i + 1 < len(lines):
            return re.sub(r"^<\d> \[ *[0-9.]+\] ", "", lines[i + 1])
    return ""


def vm_boot(scratch, batch, log):
    """One boot for a batch of built mutants [(m, stage, build secs)]:
    {name: (verdict, detail, secs)} for each mutant that ran, and the boot's
    VM seconds.  The control runs first; a mutant killed by a test the
    control failed as well is an ERROR, and when the control itself did not
    run cleanly every mutant is."""
    boot = os.path.join(scratch, "build", "vm-mutants")
    shutil.rmtree(boot, ignore_errors=True)
    root = os.path.join(boot, "mutants")
    os.makedirs(os.path.join(root, "control"))
    globs = []
    for m, _, _ in batch:
        globs += [g for g in m["tests"] if g not in globs]
    with open(os.path.join(root, "control", "tests"), "w") as f:
        f.write(" ".join(globs) + "\n")
    for m, stage, _ in batch:
        shutil.copytree(stage, os.path.join(root, m["name"], "files"),
                        copy_function=os.link)
        with open(os.path.join(root, m["name"], "tests"), "w") as f:
            f.write(" ".join(m["tests"]) + "\n")
    with open(os.path.join(root, "order"), "w") as f:
        f.write("control\n" + "".join(m["name"] + "\n" for m, _, _ in batch))
    cpio = os.path.join(boot, "mutants.cpio")
    with open(cpio, "wb") as out:
        names = subprocess.run(["find", "mutants"], cwd=boot, check=True,
                               stdout=subprocess.PIPE).stdout
        subprocess.run(["cpio", "-o", "-H", "newc", "-R", "0:0", "--quiet"],
                       cwd=boot, input=names, stdout=out, check=True)
    env = dict(os.environ, VM_EXTRA_CPIO=cpio)
    env.setdefault("VM_TIMEOUT", str(900 + 600 * len(batch)))
    start = os.path.getsize(log)
    run(["scripts/vm-run.sh", "--job", "mutants"], scratch, log, env=env)
    with open(log, errors="replace") as f:
        f.seek(start)
        secs = re.findall(r"\[VM ([0-9.]+)s", f.read())
    vm_secs = float(secs[-1]) if secs else 0.0
    entries, stop = read_console(
        os.path.join(scratch, "out/results/latest/console.log"))
    if stop:
        print(f"[mutate] the boot stopped early: {stop}", flush=True)
    if "control" not in entries:
        return {m["name"]: ("ERROR", "the control did not run", 0.0)
                for m, _, _ in batch}, vm_secs
    state, why, ctrl_failed = judge(*entries.pop("control"))
    if state == "fail" and not ctrl_failed or \
            not entries and (stop or state == "fail"):
        return {m["name"]: ("ERROR", f"control: {why or stop}", 0.0)
                for m, _, _ in batch}, vm_secs
    out = {}
    for m, _, build_secs in batch:
        if m["name"] not in entries:
            continue
        lines, secs = entries[m["name"]]
        state, detail, _ = judge(lines, secs)
        if state == "fail" and any(fnmatch.fnmatch(t, g) for t in ctrl_failed
                                   for g in m["tests"]):
            state, detail = "error", f"the control failed too: " \
                f"{','.join(ctrl_failed)}"
        out[m["name"]] = ({"fail": "killed", "pass": "SURVIVED"}.get(
            state, "ERROR"), detail, build_secs + (secs or 0.0))
    return out, vm_secs


def vm_mutants(scratch, sel, log, report):
    """Build each VM mutant and boot them BATCH at a time: the guest runs
    the control, then each mutant against its tests.  The mutants a boot
    did not get to (one before them took the guest down or left the kernel
    tainted) go to the next boot."""
    if not vm_build(scratch, log):
        sys.exit(f"mutate: the unmutated tree does not build (see {log})")
    stages = os.path.join(scratch, "build", "vm-stages")
    base = os.path.join(stages, "=base")
    vm_stage(vm_files(scratch), base)
    pending, nboot = [], 0
    while sel or pending:
        while sel and len(pending) < BATCH:
            m = sel.pop(0)
            t0 = time.time()
            with mutated(scratch, m, log):
                if not vm_build(scratch, log):
                    report(m, "NOBUILD", time.time() - t0, "")
                    continue
                stage = os.path.join(stages, m["name"])
                vm_stage(vm_files(scratch), stage, base)
            pending.append((m, stage, time.time() - t0))
        if not pending:
            break
        # back to the unmutated build: the boot's own modules and binaries
        if not vm_build(scratch, log):
            sys.exit(f"mutate: the unmutated tree does not build (see {log})")
        nboot += 1
        print(f"[mutate] boot {nboot}: the control and {len(pending)} "
              f"mutants", flush=True)
        res, vm_secs = vm_boot(scratch, pending, log)
        print(f"[mutate] boot {nboot}: VM {vm_secs:.0f}s", flush=True)
        if not res:
            res = {m["name"]: ("ERROR", "the boot ran none of its mutants",
                               0.0) for m, _, _ in pending}
        for m, _, _ in pending:
            if m["name"] in res:
                report(m, res[m["name"]][0], res[m["name"]][2],
                       res[m["name"]][1])
        pending = [p for p in pending if p[0]["name"] not in res]


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


@contextlib.contextmanager
def mutated(scratch, m, log):
    """m applied to the scratch copy, for the time of the with block."""
    path = os.path.join(scratch, m["file"])
    with open(path) as f:
        orig = f.read()
    with open(log, "a") as f:
        f.write(f"\n=== mutant {m['name']}\n")
    with open(path, "w") as f:
        f.write(apply(orig, m))
    try:
        yield
    finally:
        with open(path, "w") as f:
            f.write(orig)


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
    rows = []

    def report(m, verdict, dt, detail):
        rows.append((m["name"], m["where"], verdict, dt, detail))
        print(f"  {m['name']:34} {m['where']:4} {verdict:8} "
              f"{dt:6.1f}s  {detail}", flush=True)

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
        for m in [m for m in sel if m["where"] != "vm"]:
            t0 = time.time()
            detail = ""
            with mutated(scratch, m, log):
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
                else:
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
            report(m, verdict, time.time() - t0, detail)
        vm = [m for m in sel if m["where"] == "vm"]
        if vm:
            vm_mutants(scratch, vm, log, report)
    finally:
        if not a.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    killed = sum(r[2] == "killed" for r in rows)
    print(f"mutate: {killed} of {len(rows)} mutants killed "
          f"(score {100 * killed // len(rows)}%)")
    return 1 if killed < len(rows) else 0


if __name__ == "__main__":
    sys.exit(main())
