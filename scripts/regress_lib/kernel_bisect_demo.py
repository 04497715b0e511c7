#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The kernel-bisection demonstration (CTest kbisect.demo.latest).

  python3 scripts/regress_lib/kernel_demo.py [--kernel 7.2] [--scenario smoke] [--out DIR]
                                             [--import-only] [--keep DIR] [--help]

Makes a git repository of the whole Debian linux-source-<K> tree (the version of the
build/guest/<K> image; the import, one commit of ~90,000 files, is cached as a bare repository
in <cache>/kernel-demo/linux-source-<K>_<version>/base.git, so later runs only clone it
--shared) with 6 commits on top, made with git plumbing (no checkout):

  C1  r8169: describe the TX DMA burst setting            (a comment)
  C2  Documentation: r8169 guests under rtl8168-sim       (a file nothing compiles)
  C3  r8169: phy_config: table of the 8168c PHY setup     DOES NOT BUILD (a missing ';')
  C4  r8169: phy_config: fix the build                    (C3 fixed: C2's tree again)
  C5  r8169: no MSI on the 8168b/8168c                    PLANTED REGRESSION
  C6  MAINTAINERS: note the rtl8168-sim model             (a file nothing compiles)

C5 widens rtl_alloc_irq()'s INTx-only chip range (RTL_GIGA_MAC_VER_07 ... _17, the 8169s and
the old 8168b/8101) to ..._24, so the emulated 8168c (MAC_VER_22) gets PCI_IRQ_INTX and no
MSI: the driver works, slower and on a shared line, and the smoke scenario fails
("eth0 does not use MSI"). The order makes git bisect's first midpoint C3 (skipped: it does
not build), then C4 (good), then C5 (bad): two harness runs and three kernel builds into one
output directory, the first cold (ccache), the others a few objects.

Then runs  scripts/bisect --kernel-tree <repo> --good C0 --bad C6 --scenario smoke --no-verify
and fails unless all hold:
  1. it names exactly C5 as the first bad commit (exit 0);
  2. its steps tested C3 as skipped, and the scenario FAILed on C5 and PASSed on C4 (the
     plant's parent): the plant is what the scenario catches, the build break is skipped.
Prints DEMO PASS or DEMO FAIL <what> and the timings. Exit 0 / 1 (2: missing pieces).
"""
import argparse
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lablib import kernelpkg
from . import demo_report, kernels
from .errors import BadInput

HERE = Path(__file__).resolve().parent
REPO = kernels.REPO
RT = "drivers/net/ethernet/realtek"
MAIN = f"{RT}/r8169_main.c"
PHY = f"{RT}/r8169_phy_config.c"
IDENT = ["-c", "user.name=rtl8168-sim demo", "-c", "user.email=demo@rtl8168-sim.invalid",
         "-c", "commit.gpgsign=false"]
DATE = "2026-01-01T00:00:00Z"

DOC = """.. SPDX-License-Identifier: GPL-2.0

r8169 under rtl8168-sim
=======================

The rtl8168-sim project models the RTL8168c/8111c (RTL_GIGA_MAC_VER_22) for QEMU; this
driver probes it unmodified.  The project's scripts/bisect --kernel-tree bisects a kernel
tree with its guest scenarios.
"""

PHY_OLD = "static void rtl8168c_1_hw_phy_config(struct rtl8169_private *tp,"
PHY_BROKEN = ("/* the 8168c PHY setups below, one per chip revision */\n"
              "static const int rtl8168c_phy_setups = 4\n\n" + PHY_OLD)

# (subject, body, {path: [(old, new)]} or {path: text}); every edit must match exactly once
SERIES = [
    ("r8169: describe the TX DMA burst setting",
     "TX_DMA_BURST is written to TxConfig bits 10:8 (MXDMA); say what 7 means.",
     {MAIN: [("#define TX_DMA_BURST\t7\t/* Maximum PCI burst, '7' is unlimited */",
              "#define TX_DMA_BURST\t7\t/* Maximum PCI burst, '7' is unlimited (the PCIe max "
              "read request size) */")]}),
    ("Documentation: r8169 guests under rtl8168-sim", "",
     {"Documentation/networking/device_drivers/ethernet/realtek/rtl8168-sim.rst": DOC}),
    ("r8169: phy_config: name the number of 8168c PHY setups",
     "DOES NOT BUILD (scripts/regress_lib/kernel_demo.py): the new declaration lacks its ';'.",
     {PHY: [(PHY_OLD, PHY_BROKEN)]}),
    ("r8169: phy_config: fix the build",
     "Drop the half-done declaration of the previous commit again.",
     {PHY: [(PHY_BROKEN, PHY_OLD)]}),
    ("r8169: no MSI on the 8168b/8168c",
     "PLANTED REGRESSION (scripts/regress_lib/kernel_demo.py): rtl_alloc_irq() gives the chips\n"
     "up to RTL_GIGA_MAC_VER_24 legacy INTx only, so the RTL8168c (VER_22) loses MSI and shares\n"
     "its interrupt line; the smoke scenario checks that r8169 runs the 8168c on MSI.",
     {MAIN: [("\tcase RTL_GIGA_MAC_VER_07 ... RTL_GIGA_MAC_VER_17:\n\t\tflags = PCI_IRQ_INTX;",
              "\tcase RTL_GIGA_MAC_VER_07 ... RTL_GIGA_MAC_VER_24:\n\t\tflags = PCI_IRQ_INTX;")]}),
    ("MAINTAINERS: note the rtl8168-sim model of the 8168c", "",
     {"MAINTAINERS": [("F:\tdrivers/net/ethernet/realtek/r8169*\n",
                       "F:\tdrivers/net/ethernet/realtek/r8169*\n"
                       "F:\tDocumentation/networking/device_drivers/ethernet/realtek/"
                       "rtl8168-sim.rst\n")]}),
]
BROKEN = 2   # index in SERIES: C3
PLANT = 4    # index in SERIES: C5


def say(msg: str) -> None:
    print(f"kernel-demo: {msg}", flush=True)


def git(gitdir: str | Path, *args: str, env: dict | None = None, inp: str | bytes | None = None,
        check: bool = True) -> str | bytes:
    e = dict(os.environ, GIT_AUTHOR_DATE=DATE, GIT_COMMITTER_DATE=DATE)
    e.update(env or {})
    p = subprocess.run(["git", f"--git-dir={gitdir}", *IDENT, *args], capture_output=True,
                       env=e, input=inp, text=inp is None or isinstance(inp, str))
    if check and p.returncode != 0:
        err = p.stderr if isinstance(p.stderr, str) else p.stderr.decode(errors="replace")
        raise RuntimeError(f"git {' '.join(args[:3])}: {err.strip()[-300:]}")
    return p.stdout.strip() if isinstance(p.stdout, str) else p.stdout


def version_of(kernel: str) -> str:
    """The version of the build/guest/<kernel> image, else apt's candidate of linux-source."""
    try:
        return kernels.image_info(kernel).get("version") or kernels.headers(kernel)["version"]
    except BadInput:
        p = subprocess.run(["apt-cache", "policy", f"linux-source-{kernel}"],
                           capture_output=True, text=True)
        m = re.search(r"Candidate: (\S+)", p.stdout)
        if not m or m.group(1) == "(none)":
            raise BadInput(f"no build/guest/{kernel} image and apt knows no "
                           f"linux-source-{kernel} (apt-get update?)")
        return m.group(1)


def base_repo(kernel: str, version: str) -> tuple:
    """The cached bare repository of linux-source-<kernel> at version: (gitdir, base sha)."""
    pkg = f"linux-source-{kernel}"
    d = kernels.cache_root() / "kernel-demo" / f"{pkg}_{re.sub(r'[:~]', '_', version)}"
    gitdir = d / "base.git"
    stamp = gitdir / "rtl8168-base"
    if stamp.is_file():
        return gitdir, stamp.read_text().strip()
    d.mkdir(parents=True, exist_ok=True)
    with open(d / ".lock", "w") as lk:
        fcntl.flock(lk, fcntl.LOCK_EX)
        if stamp.is_file():
            return gitdir, stamp.read_text().strip()
        work = Path(tempfile.mkdtemp(prefix=".import-", dir=d))
        try:
            t0 = time.monotonic()
            say(f"fetching {pkg}={version} (Debian archive)")
            p = subprocess.run(["apt-get", "download", "-q", f"{pkg}={version}"], cwd=work,
                               capture_output=True, text=True)
            debs = list(work.glob("*.deb"))
            if p.returncode != 0 or not debs:
                why = (p.stderr.strip().splitlines() or ["no .deb"])[-1]
                raise BadInput(f"cannot download {pkg}={version}: {why} (apt-get update?)")
            say(f"unpacking {debs[0].name}")
            sh = (f"dpkg-deb --fsys-tarfile '{debs[0]}' | tar -xO ./usr/src/{pkg}.tar.xz "
                  f"| xz -dc | tar -x -C '{work}'")
            p = subprocess.run(["bash", "-o", "pipefail", "-c", sh], capture_output=True,
                               text=True)
            tree = work / pkg
            if p.returncode != 0 or not (tree / "Makefile").is_file():
                raise BadInput(f"{debs[0].name}: no {pkg}/ tree "
                               f"({(p.stderr.strip().splitlines() or ['?'])[-1]})")
            debs[0].unlink()
            tmpgit = work / "base.git"
            git(tmpgit, "init", "-q", "--bare", "-b", "main")
            say(f"importing {pkg} {version} into git (one commit of the whole tree)")
            wt = [f"--work-tree={tree}"]
            subprocess.run(["git", f"--git-dir={tmpgit}", *wt, "add", "-A", "-f", "."],
                           check=True, capture_output=True)
            git(tmpgit, *wt, "commit", "-q", "-m", f"Import {pkg} {version} (Debian)")
            sha = git(tmpgit, "rev-parse", "HEAD")
            (tmpgit / "index").unlink(missing_ok=True)
            (tmpgit / "rtl8168-base").write_text(sha + "\n")
            shutil.rmtree(gitdir, ignore_errors=True)
            os.replace(tmpgit, gitdir)
            say(f"base {sha[:12]} cached in {gitdir} ({time.monotonic() - t0:.0f} s)")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return gitdir, stamp.read_text().strip()


def simulate(gitdir: Path, shas: list) -> list:
    """The indices (into shas) git bisect run tests for good shas[0], bad shas[-1] when the
    break skips and the plant and later fail: git bisect --no-checkout, nothing built."""
    script = (f'i=$(grep -n "$(git rev-parse BISECT_HEAD)" "$0.list" | cut -d: -f1); '
              f'echo "TEST $((i - 1))" >&2; [ $((i - 1)) = {BROKEN + 1} ] && exit 125; '
              f'[ $((i - 1)) -ge {PLANT + 1} ] && exit 1; exit 0')
    d = Path(tempfile.mkdtemp(prefix="rtl8168-kdemo-sim-"))
    try:
        sim = d / "sim.git"
        subprocess.run(["git", "clone", "-q", "--bare", "--shared", str(gitdir), str(sim)],
                       check=True, capture_output=True)
        (d / "t.sh").write_text(script + "\n")
        (d / "t.sh.list").write_text("\n".join(shas) + "\n")
        git(sim, "bisect", "start", "--no-checkout", shas[-1], shas[0])
        p = subprocess.run(["git", f"--git-dir={sim}", "bisect", "run", "sh", str(d / "t.sh")],
                           capture_output=True, text=True)
        return [int(l.split()[1]) for l in p.stderr.splitlines() if l.startswith("TEST ")]
    finally:
        shutil.rmtree(d, ignore_errors=True)


WANT_STEPS = [BROKEN + 1, PLANT, PLANT + 1]     # C3 (skip), C4 (good), C5 (bad)


def make_series(gitdir: Path, base: str) -> list:
    """The SERIES on base, with the commit dates that make git bisect test exactly C3, C4,
    C5 (after a skip git picks among equally good commits by their sha, so the order depends
    on the shas: the first nonce 0, 1, ... whose shas give that order; deterministic)."""
    for nonce in range(64):
        shas = make_commits(gitdir, base, nonce)
        if simulate(gitdir, shas) == WANT_STEPS:
            return shas
    raise RuntimeError("no commit dates found that make git bisect test C3, C4, C5")


def make_commits(gitdir: Path, base: str, nonce: int = 0) -> list:
    """The SERIES as commits on base (plumbing: a temporary index, no work tree); shas."""
    shas = [base]
    idx = Path(tempfile.mkdtemp(prefix="rtl8168-kdemo-idx-")) / "index"
    env = {"GIT_INDEX_FILE": str(idx)}
    try:
        git(gitdir, "read-tree", base, env=env)
        for subject, body, changes in SERIES:
            for path, change in changes.items():
                if isinstance(change, str):
                    text = change
                else:
                    text = git(gitdir, "show", f"{shas[-1]}:{path}", inp=b"").decode()
                    for old, new in change:
                        if text.count(old) != 1:
                            raise RuntimeError(f"demo edit '{subject}': text not found once "
                                               f"in {path}")
                        text = text.replace(old, new)
                blob = git(gitdir, "hash-object", "-w", "--stdin", f"--path={path}",
                           inp=text.encode()).decode().strip()
                git(gitdir, "update-index", "--add", "--cacheinfo", f"100644,{blob},{path}",
                    env=env)
            tree = git(gitdir, "write-tree", env=env)
            msg = subject + (f"\n\n{body}" if body else "") + "\n"
            n = len(shas)
            when = f"2026-01-01T{n:02d}:{nonce // 60:02d}:{nonce % 60:02d}Z"
            shas.append(git(gitdir, "commit-tree", tree, "-p", shas[-1], inp=msg,
                            env={"GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when}))
        git(gitdir, "update-ref", "refs/heads/main", shas[-1])
    finally:
        shutil.rmtree(idx.parent, ignore_errors=True)
    return shas


def main() -> int:
    ap = argparse.ArgumentParser(prog="scripts/regress_lib/kernel_demo.py",
                                 description=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", default="latest",
                    help="the Debian linux-source series (default latest: unstable's newest, 7.2 today)")
    ap.add_argument("--scenario", default="smoke")
    ap.add_argument("--out", help="bisection directory (default build/kbisect-demo/<kernel>)")
    ap.add_argument("--keep", metavar="DIR", help="make the demo repository in DIR and keep it")
    ap.add_argument("--import-only", action="store_true",
                    help="only make (or find) the cached base repository")
    a = ap.parse_args()
    t_start = time.monotonic()
    timings = {}
    try:
        if a.kernel == kernelpkg.LATEST:   # Debian unstable's newest series (7.2 today)
            try:
                a.kernel = kernelpkg.series_of(a.kernel)
            except kernelpkg.LookupError_ as e:
                raise BadInput(str(e))
        version = version_of(a.kernel)
        t0 = time.monotonic()
        base_git, base = base_repo(a.kernel, version)
        timings["import"] = time.monotonic() - t0
    except (BadInput, RuntimeError, subprocess.CalledProcessError) as e:
        print(f"kernel-demo: error: {e}", file=sys.stderr)
        return 2
    if a.import_only:
        print(f"{base_git} {base}")
        return 0
    out = Path(a.out) if a.out else REPO / "build" / "kbisect-demo" / a.kernel
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="rtl8168-kdemo-"))
    repo = Path(a.keep) if a.keep else tmp / "linux.git"
    if a.keep:
        shutil.rmtree(repo, ignore_errors=True)
    fails = []
    planted = "?"
    try:
        subprocess.run(["git", "clone", "-q", "--bare", "--shared", str(base_git), str(repo)],
                       check=True, capture_output=True)
        shas = make_series(repo, base)
        planted, parent, broken = shas[PLANT + 1], shas[PLANT], shas[BROKEN + 1]
        say(f"{repo}: base {base[:12]} + {len(SERIES)} commits; does not build: "
            f"{broken[:12]}; planted regression: {planted[:12]} (parent {parent[:12]})")
        print(git(repo, "log", "--oneline", "--reverse", shas[-1]), flush=True)
        jpath = out / "bisect.json"
        jpath.unlink(missing_ok=True)
        cmd = [str(REPO / "scripts/bisect"), "--kernel-tree", str(repo), "--good", base,
               "--bad", shas[-1], "--scenario", a.scenario, "--out", str(out),
               "--json", str(jpath), "--no-verify"]
        print("$ " + " ".join(cmd), flush=True)
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
        timings["bisect"] = time.monotonic() - t0
        sys.stdout.write(p.stdout)
        m = re.search(r"^first bad commit: ([0-9a-f]{40}) ", p.stdout, re.M)
        if p.returncode != 0 or not m:
            fails.append(f"bisect exit {p.returncode}, no first bad commit")
        elif m.group(1) != planted:
            fails.append(f"bisect named {m.group(1)[:12]}, the plant is {planted[:12]}")
        doc = json.loads(jpath.read_text()) if jpath.is_file() else {"steps": []}
        by = {s["sha"]: s for s in doc.get("steps", []) if "sha" in s}
        for sha, status, verdict, what in ((broken, "skip", None, "the build break"),
                                           (planted, "bad", "FAIL", "the plant"),
                                           (parent, "good", "PASS", "the plant's parent")):
            s = by.get(sha)
            if not s:
                fails.append(f"{what} {sha[:12]} was not tested")
                continue
            got = [r["status"] for r in s.get("results", []) if r["name"] == a.scenario]
            if s["status"] != status or (verdict and got != [verdict]):
                fails.append(f"{what} {sha[:12]}: {s['status']} {got} (want {status} "
                             f"{verdict or ''})")
        for s in doc.get("steps", []):
            timings[f"step {s['rev']} {s['status']}"] = s.get("wall_s", 0)
    except (RuntimeError, subprocess.CalledProcessError, ValueError) as e:
        fails.append(str(e))
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return demo_report.finish("kernel-demo", timings, t_start, out, fails,
                              f"bisect named the planted commit {planted[:12]} (skipped the build "
                              f"break; {a.scenario} FAIL on the plant, PASS on its parent)")


if __name__ == "__main__":
    sys.exit(main())
