#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The planted-regression bisect demonstration (CTest regress.bisect-demo.6.1).

  python3 scripts/regress_lib/demo.py [--kernel 6.1] [--scenario txpoll-stall] [--out DIR]
                                      [--keep DIR] [--help]

Builds, in a temporary directory, a git repository from the stock r8169 sources of the kernel
(Debian linux-source, cached) with a series of 8 commits. Commit 5 plants a real historical
regression in the real r8169 code: it removes rtl_tx()'s "8168 hack" TxPoll re-kick, the fix
of the 2007 lost-doorbell stall (docs/HISTORY.md section 1). The model's lossy-txpoll quirk (on by
default) then strands frames in the TX ring and the lab's txpoll-stall episode stalls. The
other commits change comments, the module description and a README only.

Then checks, and fails unless all hold:
  1. scripts/bisect --good C1 --bad C8 names exactly C5 as the first bad commit;
  2. scripts/regress --driver <tree at C5> reports FAIL for the scenario (exit 1);
  3. scripts/regress --driver <tree at C4> (its parent) reports PASS (exit 0).
Prints DEMO PASS or DEMO FAIL <what> and the timings. Exit 0 / 1 (2: missing pieces).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import demo_report, driver, kernels
from .errors import BadInput

HERE = Path(__file__).resolve().parent
REPO = kernels.REPO
MAIN = "r8169_main.c"

README = """r8169 out of tree
=================

The files of drivers/net/ethernet/realtek/ that make r8169.ko, from Debian's linux-source
package. Build against a kernel's headers:

    make -C /lib/modules/$(uname -r)/build M=$PWD modules
"""

# (subject, body, {file: [(old, new)]} or {file: text} for new files); index 3 is the plant
SERIES = [
    ("r8169: describe the TX DMA burst setting",
     "TX_DMA_BURST is written to TxConfig bits 10:8 (MXDMA); say what 7 means.",
     {MAIN: [("#define TX_DMA_BURST\t7\t/* Maximum PCI burst, '7' is unlimited */",
              "#define TX_DMA_BURST\t7\t/* Maximum PCI burst, '7' is unlimited (the PCIe max "
              "read request size) */")]}),
    ("Add a README for the out-of-tree build", "", {"README": README}),
    ("r8169: name the 8168 in the module description",
     "Most users of this driver have an RTL8168/8111; say so in modinfo.",
     {MAIN: [('MODULE_DESCRIPTION("RealTek RTL-8169 Gigabit Ethernet driver");',
              'MODULE_DESCRIPTION("RealTek RTL-8169/8168/8101 Gigabit Ethernet driver");')]}),
    ("r8169: drop the extra TxPoll kick from rtl_tx",
     "PLANTED REGRESSION (scripts/regress_lib/demo.py): the \"8168 hack\" re-rings the TxPoll\n"
     "doorbell after reclaiming TX descriptors while some remain queued. Without it a doorbell\n"
     "the chip ignored while its TX engine was busy strands the frame in the ring until the next\n"
     "transmit (the 2007 RTL8111b stall); the lab's txpoll-stall episode stalls.",
     {MAIN: [("""		/*
		 * 8168 hack: TxPoll requests are lost when the Tx packets are
		 * too close. Let's kick an extra TxPoll request when a burst
		 * of start_xmit activity is detected (if it is not detected,
		 * it is slow enough). -- FR
		 * If skb is NULL then we come here again once a tx irq is
		 * triggered after the last fragment is marked transmitted.
		 */
		if (READ_ONCE(tp->cur_tx) != dirty_tx && skb)
			rtl8169_doorbell(tp);
""", "")]}),
    ("r8169: comment on the ack in rtl8169_interrupt", "",
     {MAIN: [("""out:
	rtl_ack_events(tp, status);
""", """out:
	/* ack exactly what was read: NAPI masked everything above */
	rtl_ack_events(tp, status);
""")]}),
    ("r8169_firmware: point to the chips that need firmware", "",
     {"r8169_firmware.c": [(" * See MAINTAINERS file for support contact information.\n */",
                            " * See MAINTAINERS file for support contact information.\n *\n"
                            " * Only RTL8168d and later chips load firmware; 8168b/c run "
                            "without.\n */")]}),
    ("README: how to regression-test a change", "",
     {"README": README + "\nRegression-test a change with rtl8168-sim:\n\n"
                         "    scripts/regress --driver $PWD --kernel 6.1\n"}),
]
PLANT = 3   # index in SERIES of the plant: commit PLANT + 2 = 5, counting the import as 1


def git(repo: str | Path, *args: str) -> str:
    env = dict(os.environ, GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
               GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
    p = subprocess.run(["git", "-C", str(repo), "-c", "user.name=rtl8168-sim demo",
                        "-c", "user.email=demo@rtl8168-sim.invalid", "-c", "commit.gpgsign=false",
                        *args], capture_output=True, text=True, env=env)
    if p.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {p.stderr.strip()}")
    return p.stdout.strip()


def make_repo(repo: Path, stock: Path, origin: str) -> list:
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    for f in sorted(stock.iterdir()):
        if f.is_file() and not f.name.startswith("."):
            shutil.copy2(f, repo / f.name)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", f"r8169: import drivers/net/ethernet/realtek from {origin}")
    shas = [git(repo, "rev-parse", "HEAD")]
    for subject, body, changes in SERIES:
        for name, change in changes.items():
            p = repo / name
            if isinstance(change, str):
                p.write_text(change)
            else:
                text = p.read_text()
                for old, new in change:
                    if text.count(old) != 1:
                        raise RuntimeError(f"demo edit '{subject}': text not found once in {name}")
                    text = text.replace(old, new)
                p.write_text(text)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", subject + (f"\n\n{body}" if body else ""))
        shas.append(git(repo, "rev-parse", "HEAD"))
    return shas


def export(repo: Path, sha: str, dest: Path) -> None:
    dest.mkdir(parents=True)
    p = subprocess.run(f"git -C '{repo}' archive {sha} | tar -x -C '{dest}'", shell=True,
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"git archive {sha}: {p.stderr.strip()}")


def run(cmd: list, log: str | Path) -> tuple:
    t0 = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - t0
    log.write(f"$ {' '.join(cmd)}\n{p.stdout}{p.stderr}(exit {p.returncode}, {wall:.0f} s)\n\n")
    log.flush()
    sys.stdout.write(p.stdout)
    sys.stdout.flush()
    return p.returncode, p.stdout, p.stderr, wall


def main() -> int:
    ap = argparse.ArgumentParser(prog="scripts/regress_lib/demo.py", description=__doc__.split(
        "\n\n", 1)[1], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernel", default="6.1", choices=kernels.KERNELS)
    ap.add_argument("--scenario", default="txpoll-stall")
    ap.add_argument("--out", help="log directory (default build/regress-demo/<kernel>)")
    ap.add_argument("--keep", metavar="DIR", help="build the demo repository in DIR and keep it")
    a = ap.parse_args()
    t_start = time.monotonic()
    out = Path(a.out) if a.out else REPO / "build" / "regress-demo" / a.kernel
    try:
        stock = driver.stock_sources(a.kernel, log=lambda m: print(f"demo: {m}", flush=True))
    except BadInput as e:
        print(f"demo: error: {e}", file=sys.stderr)
        return 2
    origin = (stock / ".origin").read_text().strip() if (stock / ".origin").is_file() else "Debian"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    tmp = Path(tempfile.mkdtemp(prefix="rtl8168-demo-"))
    repo = Path(a.keep) if a.keep else tmp / "r8169"
    if a.keep:
        shutil.rmtree(repo, ignore_errors=True)
    fails = []
    timings = {}
    try:
        shas = make_repo(repo, stock, origin)
        planted = shas[PLANT + 1]
        parent = shas[PLANT]
        print(f"demo: {repo}: {len(shas)} commits; planted regression in commit {PLANT + 2} "
              f"{planted[:12]} (parent {parent[:12]})", flush=True)
        print(git(repo, "log", "--oneline", "--reverse"), flush=True)
        log = open(out / "demo.log", "w")
        rc, so, se, timings["bisect"] = run(
            [str(REPO / "scripts/bisect"), "--good", shas[0], "--bad", shas[-1],
             "--repo", str(repo), "--kernel", a.kernel, "--scenario", a.scenario,
             "--out", str(out / "bisect"), "--json", str(out / "bisect.json")], log)
        m = re.search(r"^first bad commit: ([0-9a-f]{40})", so, re.M)
        if rc != 0 or not m:
            fails.append(f"bisect exit {rc}, no first bad commit ({(se.strip().splitlines() or [''])[-1]})")
        elif m.group(1) != planted:
            fails.append(f"bisect named {m.group(1)[:12]}, the plant is {planted[:12]}")
        for sha, want_rc, want in ((planted, 1, "FAIL"), (parent, 0, "PASS")):
            tree = tmp / f"tree-{sha[:12]}"
            export(repo, sha, tree)
            rc, so, se, timings[f"regress {want}"] = run(
                [str(REPO / "scripts/regress"), "--driver", str(tree), "--kernel", a.kernel,
                 "--scenarios", a.scenario, "--out", str(out / f"regress-{sha[:12]}"),
                 "--junit", str(out / f"regress-{sha[:12]}.xml")], log)
            line = next((l for l in so.splitlines() if l.split(" ", 2)[1:2] == [a.scenario]), "")
            if rc != want_rc or not line.startswith(want + " "):
                fails.append(f"regress on {sha[:12]}: exit {rc}, '{line}' (want {want})")
            if not re.search(r"^\d+ passed, \d+ failed$", so, re.M):
                fails.append(f"regress on {sha[:12]}: no summary line")
        log.close()
    except (RuntimeError, BadInput) as e:
        fails.append(str(e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return demo_report.finish("demo", timings, t_start, out, fails,
                              f"bisect named the planted commit {planted[:12]}; regress FAIL on it, "
                              f"PASS on its parent")


if __name__ == "__main__":
    sys.exit(main())
