# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/bisect --kernel-tree: bisect the commits of a kernel git repository with the guest
scenarios (docs/REGRESS.md "Bisecting a kernel").

  scripts/bisect --kernel-tree DIR --good REV --bad REV --scenario LIST [--out DIR]
                 [--json FILE] [--no-verify]

The bisection runs as `git bisect run` in a git worktree of DIR at OUT/src (created for the
bisection, removed after it; DIR's own checkout is not touched). Each step:
  1. scripts/build-kernel OUT/src --out OUT/kbuild --bisect-exit: the one output directory of
     the whole bisection, so kbuild recompiles only what the step's checkout changed (and
     ccache serves what it compiled before: the worktree path is the same every time);
     a revision that does not build is skipped (exit 125);
  2. the image of that tree (scripts/build-guest --kernel OUT/kbuild: build/guest/tree-<hash>)
     and the entries with the tree's own r8169 (as scripts/regress --driver stock --kernel
     OUT/kbuild --scenarios LIST): every one PASSes -> good (0), a FAIL -> bad (1), a harness
     ERROR -> abort (128).
Unless --no-verify, REV bad is checked first to fail and REV good to pass.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from . import app, driver, kernels, matrix, report
from .errors import BadInput

PROG = "bisect"
STEP_ERROR = 128        # git bisect run: an exit status above 127 aborts the bisection
EXIT = {"good": 0, "bad": 1, "skip": 125, "error": STEP_ERROR}
RT_MAIN = "drivers/net/ethernet/realtek/r8169_main.c"


def git(repo: str | Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    p = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise BadInput(f"git {' '.join(args)}: "
                       f"{(p.stderr.strip().splitlines() or ['failed'])[-1]}")
    return p


# ---- pure logic (unit-tested) ---------------------------------------------------------------

def check_args(a: argparse.Namespace) -> list:
    """The option combinations of --kernel-tree mode; BadInput (one line) for a bad one."""
    for opt in ("good", "bad"):
        if not getattr(a, opt):
            raise BadInput(f"--{opt} is required")
    if getattr(a, "repo", None) or getattr(a, "kernel", None) or getattr(a, "path", ""):
        raise BadInput("--kernel-tree bisects the kernel itself (its own r8169 is the driver): "
                       "--repo, --kernel and --path do not apply")
    # the kernels built here come from guest-tests/kernel/guest.config: no IOMMU, no ASPM
    return [n for n in matrix.select(a.scenarios, "r8169") if n not in matrix.NOT_ON_GUEST_CONFIG]


def build_status(rc: int) -> str:
    """scripts/build-kernel --bisect-exit's status -> the step's: ok, skip or error."""
    if rc == 0:
        return "ok"
    if rc == 125:
        return "skip"
    return "error"


def verdict(results: list) -> str:
    """good | bad | error from the entries' results."""
    if not results or any(r["status"] == "ERROR" for r in results):
        return "error"
    return "good" if all(report.ok(r) for r in results) else "bad"


def step_exit(status: str) -> int:
    """The exit status `git bisect run` gets for a step's status."""
    return EXIT.get(status, STEP_ERROR)


def parse_bisect_output(text: str) -> tuple:
    """What `git bisect run` concluded: ("found", sha, []), ("skipped", None, [candidate
    shas]) when only skipped commits are left, or ("stopped", None, [last lines])."""
    m = re.search(r"^([0-9a-f]{40}) is the first bad commit", text, re.M)
    if m:
        return "found", m.group(1), []
    m = re.search(r"first bad commit could be any of:\n(.*?)(?:We cannot bisect more|\Z)",
                  text, re.S)
    if m:
        return "skipped", None, re.findall(r"^([0-9a-f]{40})$", m.group(1), re.M)
    tail = [l for l in text.splitlines() if l.strip()][-3:]
    return "stopped", None, tail


# ---- the step -------------------------------------------------------------------------------

def run_rev(src: Path, kbuild: Path, names: list, out: Path, baselines: dict, rev: str,
            quiet_build: bool = True) -> tuple:
    """Build the checked-out tree at src into kbuild and run the entries on it:
    (status, results, reason, {build_s, run_s})."""
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    cmd = [str(kernels.REPO / "scripts" / "build-kernel"), str(src), "--out", str(kbuild),
           "--bisect-exit"] + (["--quiet"] if quiet_build else [])
    app.say(PROG, f"{rev}: scripts/build-kernel (log {out / 'build-kernel.log'}) ...")
    p = subprocess.run(cmd, capture_output=True, text=True)
    (out / "build-kernel.log").write_text(f"$ {' '.join(cmd)}\n{p.stdout}{p.stderr}"
                                          f"(exit {p.returncode})\n")
    times = {"build_s": round(time.monotonic() - t0, 1)}
    b = build_status(p.returncode)
    if b != "ok":
        errs = [l for l in p.stderr.splitlines() if l.strip()]
        reason = next((l for l in errs if "error:" in l and "build-kernel:" not in l), "")
        reason = (reason or (errs[-1] if errs else f"build-kernel exit {p.returncode}"))
        app.say(PROG, f"{rev}: build {'failed' if b == 'skip' else 'error'} in "
                      f"{times['build_s']:.0f} s: {reason}")
        return b, [], reason.strip(), times
    app.say(PROG, f"{rev}: built in {times['build_s']:.0f} s")
    t1 = time.monotonic()
    kname = kernels.name(str(kbuild))          # scripts/build-guest: build/guest/tree-<hash>
    module = driver.resolve("stock", kname)
    times["image_s"] = round(time.monotonic() - t1, 1)
    t2 = time.monotonic()
    results = app.run_entries(PROG, names, kname, module, out, baselines)
    times["run_s"] = round(time.monotonic() - t2, 1)
    return verdict(results), results, kname, times


def record(rev: str, sha: str, status: str, results: list, extra: dict, times: dict,
           **more: object) -> dict:
    rec = {"rev": rev, "sha": sha, "status": status, **more, **times,
           "wall_s": round(sum(times.values()), 1),
           "results": [{k: r.get(k) for k in ("name", "status", "reason", "wall_s")}
                       for r in results]}
    if status in ("skip", "error") and not results:
        rec["reason"] = extra
    elif status != "skip":
        rec["image"] = extra
    return rec


def step(a: argparse.Namespace) -> int:
    """One `git bisect run` step, inside the worktree at the revision git checked out."""
    src = Path(a.kernel_step)
    out = Path(a.out)
    sha = git(src, "rev-parse", "HEAD").stdout.strip()
    rev = sha[:12]
    names = matrix.select(a.scenarios, "r8169")
    status, results, extra, times = run_rev(src, out / "kbuild", names, out / rev,
                                            matrix.load_baselines(), rev)
    rec = record(rev, sha, status, results, extra, times)
    if status == "skip":
        print(f"SKIP {rev} does not build: {extra}", flush=True)
    print(f"STEP {rev} {status}", flush=True)
    if a.step_log:
        with open(a.step_log, "a") as f:
            f.write(json.dumps(rec) + "\n")
    return step_exit(status)


# ---- the bisection --------------------------------------------------------------------------

def preflight(names: list) -> None:
    q = app.qemu_path()
    if not os.access(q, os.X_OK):
        raise BadInput(f"no QEMU at {q}: run scripts/build-qemu")
    if any(matrix.kind(n) == "guest" for n in names) and not os.access(app.peer_path(), os.X_OK):
        raise BadInput(f"no host peer at {app.peer_path()}: cmake -S . -B build && "
                       f"cmake --build build")
    for tool in ("make", "gcc", "ccache", "git", "flex", "bison", "bc"):
        if not shutil.which(tool):
            raise BadInput(f"'{tool}' not found: run scripts/setup kernel")


def resolve_repo(path: str | Path) -> Path:
    """(git dir for -C, is_bare) of --kernel-tree DIR; BadInput when it is not a repository."""
    d = Path(path)
    if not d.is_dir():
        raise BadInput(f"--kernel-tree {path}: no such directory")
    p = git(d, "rev-parse", "--is-bare-repository", check=False)
    if p.returncode != 0:
        raise BadInput(f"--kernel-tree {path}: not a git repository")
    if p.stdout.strip() == "true":
        return d.resolve()
    return Path(git(d, "rev-parse", "--show-toplevel").stdout.strip())


def resolve_revs(repo: Path, a: argparse.Namespace) -> dict:
    revs = {}
    for opt in ("good", "bad"):
        v = getattr(a, opt)
        p = git(repo, "rev-parse", "--verify", "--quiet", f"{v}^{{commit}}", check=False)
        if p.returncode != 0:
            raise BadInput(f"--{opt} {v}: not a commit of {repo}")
        revs[opt] = p.stdout.strip()
    if revs["good"] == revs["bad"]:
        raise BadInput("--good and --bad are the same commit")
    if git(repo, "merge-base", "--is-ancestor", revs["good"], revs["bad"],
           check=False).returncode:
        raise BadInput(f"--good {a.good} is not an ancestor of --bad {a.bad}")
    for f in ("Makefile", "Kconfig", RT_MAIN):
        if git(repo, "cat-file", "-e", f"{revs['bad']}:{f}", check=False).returncode:
            raise BadInput(f"--bad {a.bad} is not a kernel tree with r8169 (no {f})")
    return revs


def drop_worktree(repo: Path, wt: Path) -> None:
    git(repo, "worktree", "remove", "--force", str(wt), check=False)
    if wt.exists():                      # a stale one of a run that was killed
        g = wt / ".git"
        if g.is_file():
            git(wt, "worktree", "remove", "--force", str(wt), check=False)
        shutil.rmtree(wt, ignore_errors=True)
    git(repo, "worktree", "prune", check=False)


def run(a: argparse.Namespace, bisect_script: str | Path, finish: Callable[..., int]) -> int:
    """The bisection; finish(doc, jpath, rc, started) writes the JSON and returns rc."""
    started = time.time()
    names = check_args(a)
    repo = resolve_repo(a.kernel_tree)
    revs = resolve_revs(repo, a)
    preflight(names)
    jpath = app.writable_parent(a.json, "--json")
    baselines = matrix.load_baselines()
    out = (Path(a.out) if a.out else kernels.REPO / "build" / "bisect" / "kernel").resolve()
    out.mkdir(parents=True, exist_ok=True)
    wt, kbuild = out / "src", out / "kbuild"
    n_revs = len(git(repo, "rev-list", f"{revs['good']}..{revs['bad']}").stdout.split())
    app.say(PROG, f"{repo}: {n_revs} commits in {a.good}..{a.bad}, entries {', '.join(names)}; "
                  f"worktree {wt}, kernel builds in {kbuild}, logs in {out}")
    drop_worktree(repo, wt)
    t0 = time.monotonic()
    git(repo, "worktree", "add", "--detach", "--quiet", str(wt), revs["bad"])
    app.say(PROG, f"worktree checked out in {time.monotonic() - t0:.0f} s")
    doc = {"tool": "scripts/bisect", "mode": "kernel-tree", "repo": str(repo),
           "good": revs["good"], "bad": revs["bad"], "entries": names, "out": str(out),
           "kbuild": str(kbuild), "steps": []}
    full = ""
    try:
        if not a.no_verify:
            for which, want in (("bad", "bad"), ("good", "good")):
                git(wt, "checkout", "--quiet", "--detach", revs[which])
                short = revs[which][:12]
                app.say(PROG, f"verifying --{which} {short}")
                status, results, extra, times = run_rev(wt, kbuild, names, out / short,
                                                        baselines, short)
                doc["steps"].append(record(short, revs[which], status, results, extra, times,
                                           verify=which))
                if status != want:
                    why = (f"it does not build ({extra})" if status == "skip" else
                           "a harness ERROR" if status == "error" else f"it is {status}")
                    app.say(PROG, f"--{which} {getattr(a, which)} should be {want} but {why}")
                    doc["result"] = f"--{which} is not {want}"
                    return finish(doc, jpath, 1, started)
        steplog = out / "steps.jsonl"
        steplog.unlink(missing_ok=True)
        git(wt, "bisect", "start", revs["bad"], revs["good"])
        cmd = ["git", "-C", str(wt), "bisect", "run", sys.executable, str(bisect_script),
               "--scenarios", ",".join(names), "--out", str(out), "--kernel-step", str(wt),
               "--step-log", str(steplog)]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=None, text=True)
        text = []
        for line in p.stdout:
            text.append(line)
            if re.match(r"^(PASS|FAIL|TIMEOUT|ERROR|SKIP|STEP) ", line):
                print(line, end="", flush=True)
        p.wait()
        full = "".join(text)
        (out / "bisect-run.log").write_text(full)
        (out / "bisect.log").write_text(git(wt, "bisect", "log", check=False).stdout)
        if steplog.is_file():
            doc["steps"] += [json.loads(l) for l in steplog.read_text().splitlines()
                             if l.strip()]
    finally:
        git(wt, "bisect", "reset", "--quiet", check=False)
        drop_worktree(repo, wt)
    kind, first, more = parse_bisect_output(full)
    if kind != "found":
        if kind == "skipped":
            doc["result"] = "not found: skipped commits hide it"
            doc["candidates"] = more
        else:
            doc["result"] = "not found: git bisect run stopped"
            app.say(PROG, "git bisect run stopped: " + " | ".join(more))
        print(f"{PROG}: the first bad commit was not found ({doc['result']})", flush=True)
        return finish(doc, jpath, 1, started)
    subject = git(repo, "log", "-1", "--format=%s", first).stdout.strip()
    doc["first_bad"] = {"sha": first, "subject": subject}
    doc["result"] = "found"
    print(f"first bad commit: {first} {subject}", flush=True)
    return finish(doc, jpath, 0, started)
