# SPDX-License-Identifier: GPL-2.0-or-later
"""Tests of scripts/bisect --kernel-tree that build no kernel and boot no guest (CTest
regress.unit): option checks, the exit-code mapping of a step, parsing git bisect run's
output, the demo's series, and the one-line exit-2 errors of the command for bad input
(a not-a-repository, unknown revisions, good not an ancestor of bad, unknown scenario: all
checked before anything is built, on a tiny git repository made here).

  python3 -m unittest -v regress_lib.test_kernel_bisect        (from scripts/)
The demo-series check needs the cached base repository (kernel_demo.py --import-only); it is
skipped under RTL8168_REGRESS_UNIT_ONLY=1 or when the cache has none."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

from regress_lib import kernel_bisect as kb
from regress_lib import kernel_bisect_demo as kernel_demo
from regress_lib.errors import BadInput

UNIT_ONLY = os.environ.get("RTL8168_REGRESS_UNIT_ONLY") == "1"
SHA1 = "1" * 40
SHA2 = "2" * 40


def ns(**kw):
    d = dict(good="v1", bad="v2", repo=None, kernel=None, path="", scenarios="smoke")
    d.update(kw)
    return argparse.Namespace(**d)


class Args(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(kb.check_args(ns()), ["smoke"])
        self.assertEqual(kb.check_args(ns(scenarios="lab")),
                         ["dma-burst", "frames", "msi-lost-irq", "offload-latency",
                          "txpoll-stall"])

    def test_missing_and_conflicting(self):
        with self.assertRaisesRegex(BadInput, "--good is required"):
            kb.check_args(ns(good=None))
        with self.assertRaisesRegex(BadInput, "--bad is required"):
            kb.check_args(ns(bad=""))
        for kw in ({"repo": "x"}, {"kernel": "6.1"}, {"path": "sub"}):
            with self.assertRaisesRegex(BadInput, "do not apply", msg=kw):
                kb.check_args(ns(**kw))

    def test_unknown_scenario(self):
        with self.assertRaisesRegex(BadInput, "unknown scenario 'nope'"):
            kb.check_args(ns(scenarios="smoke,nope"))


class ExitCodes(unittest.TestCase):
    def test_build_status(self):
        self.assertEqual(kb.build_status(0), "ok")
        self.assertEqual(kb.build_status(125), "skip")
        for rc in (1, 2, 128, -9):
            self.assertEqual(kb.build_status(rc), "error", rc)

    def test_verdict(self):
        P, F, E = ({"status": s} for s in ("PASS", "FAIL", "ERROR"))
        self.assertEqual(kb.verdict([P, P]), "good")
        self.assertEqual(kb.verdict([P, F]), "bad")
        self.assertEqual(kb.verdict([{"status": "TIMEOUT"}]), "bad")
        self.assertEqual(kb.verdict([F, E]), "error")
        self.assertEqual(kb.verdict([]), "error")

    def test_step_exit(self):
        self.assertEqual([kb.step_exit(s) for s in ("good", "bad", "skip", "error", "?")],
                         [0, 1, 125, 128, 128])
        self.assertGreater(kb.step_exit("error"), 127)   # aborts git bisect run


class BisectOutput(unittest.TestCase):
    def test_found(self):
        text = (f"running  'python3' ...\nSTEP 222222222222 bad\n{SHA2} is the first bad commit\n"
                f"commit {SHA2}\nAuthor: x\n\n    r8169: no MSI\n\nbisect found first bad commit\n")
        self.assertEqual(kb.parse_bisect_output(text), ("found", SHA2, []))

    def test_skipped(self):
        text = ("There are only 'skip'ped commits left to test.\n"
                f"The first bad commit could be any of:\n{SHA1}\n{SHA2}\n"
                "We cannot bisect more!\nbisect run cannot continue any more\n")
        self.assertEqual(kb.parse_bisect_output(text), ("skipped", None, [SHA1, SHA2]))

    def test_stopped(self):
        text = ("running 'x'\nbisect run failed:\n"
                "exit code 128 from 'x' is < 0 or >= 128\n")
        kind, sha, tail = kb.parse_bisect_output(text)
        self.assertEqual((kind, sha), ("stopped", None))
        self.assertIn("exit code 128", tail[-1])
        self.assertEqual(kb.parse_bisect_output(""), ("stopped", None, []))


class DemoSeries(unittest.TestCase):
    def test_shape(self):
        subj = [s[0] for s in kernel_demo.SERIES]
        self.assertEqual(len(subj), 6)
        self.assertIn("MSI", subj[kernel_demo.PLANT])
        self.assertIn("DOES NOT BUILD", kernel_demo.SERIES[kernel_demo.BROKEN][1])
        # the commit after the break undoes it exactly: its tree builds like the one before
        (path, edits), = kernel_demo.SERIES[kernel_demo.BROKEN][2].items()
        (path2, undo), = kernel_demo.SERIES[kernel_demo.BROKEN + 1][2].items()
        self.assertEqual(path, path2)
        self.assertEqual(undo, [(n, o) for o, n in edits])
        self.assertNotIn(";", edits[0][1].split("=")[1].split("\n")[0])

    def test_bisect_order(self):
        """kernel_demo.simulate (git bisect --no-checkout, nothing built) on a stand-in history
        of the demo's shape: the first midpoint is the break (skipped), and the plant and its
        parent are tested (the order after the skip depends on the shas: make_series picks
        commit dates that make it C3, C4, C5)."""
        d = Path(tempfile.mkdtemp(prefix="kb-test-"))
        try:
            g = ["git", "-C", str(d), "-c", "user.name=t", "-c", "user.email=t@t"]
            subprocess.run(["git", "init", "-q", str(d)], check=True)
            shas = []
            for i in range(len(kernel_demo.SERIES) + 1):
                (d / "f").write_text(f"{i}\n")
                subprocess.run(g + ["add", "f"], check=True)
                subprocess.run(g + ["commit", "-qm", f"C{i}"], check=True)
                shas.append(subprocess.run(g + ["rev-parse", "HEAD"], capture_output=True,
                                           text=True).stdout.strip())
            tested = kernel_demo.simulate(d / ".git", shas)
            self.assertEqual(tested[0], kernel_demo.BROKEN + 1, tested)
            self.assertEqual(tested[-1], kernel_demo.PLANT + 1, tested)
            self.assertIn(kernel_demo.PLANT, tested)
            self.assertEqual(kernel_demo.WANT_STEPS, [3, 4, 5])
        finally:
            shutil.rmtree(d, ignore_errors=True)

    @unittest.skipIf(UNIT_ONLY, "needs the cached linux-source base repository")
    def test_series_applies(self):
        from regress_lib import kernels
        try:
            version = kernel_demo.version_of("7.2")
        except BadInput as e:
            self.skipTest(str(e))
        gitdir = (kernels.cache_root() / "kernel-demo" / f"linux-source-7.2_{version}" /
                  "base.git")
        if not (gitdir / "rtl8168-base").is_file():
            self.skipTest("no cached base repository")
        d = Path(tempfile.mkdtemp(prefix="kb-series-"))
        try:
            subprocess.run(["git", "clone", "-q", "--bare", "--shared", str(gitdir),
                            str(d / "r.git")], check=True)
            base = (gitdir / "rtl8168-base").read_text().strip()
            shas = kernel_demo.make_series(d / "r.git", base)
            self.assertEqual(len(shas), 7)
            self.assertEqual(kernel_demo.simulate(d / "r.git", shas), [3, 4, 5])
            t = [subprocess.run(["git", f"--git-dir={d / 'r.git'}", "rev-parse", f"{s}^{{tree}}"],
                                capture_output=True, text=True).stdout for s in shas]
            self.assertEqual(t[kernel_demo.BROKEN], t[kernel_demo.BROKEN + 2])
        finally:
            shutil.rmtree(d, ignore_errors=True)


class BadInputCli(unittest.TestCase):
    """scripts/bisect --kernel-tree: one line on stderr, exit 2, before any build."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = Path(tempfile.mkdtemp(prefix="kb-cli-"))
        r = cls.tmp / "k"
        g = ["git", "-C", str(r), "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(["git", "init", "-q", "-b", "master", str(r)], check=True)
        for f in ("Makefile", "Kconfig", kb.RT_MAIN):
            (r / f).parent.mkdir(parents=True, exist_ok=True)
            (r / f).write_text("x\n")
        subprocess.run(g + ["add", "-A"], check=True)
        subprocess.run(g + ["commit", "-qm", "one"], check=True)
        (r / "Makefile").write_text("y\n")
        subprocess.run(g + ["commit", "-qam", "two"], check=True)
        subprocess.run(g + ["checkout", "-q", "-b", "side", "HEAD~1"], check=True)
        (r / "Kconfig").write_text("z\n")
        subprocess.run(g + ["commit", "-qam", "side"], check=True)
        subprocess.run(g + ["checkout", "-q", "-"], check=True)
        cls.repo = r
        (cls.tmp / "plain").mkdir()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def run_bisect(self, *args):
        p = subprocess.run([sys.executable, str(REPO / "scripts/bisect"), *args],
                           capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    def check(self, want, *args):
        rc, so, se = self.run_bisect(*args)
        self.assertEqual(rc, 2, (args, so, se))
        self.assertEqual(so, "", args)
        self.assertEqual(len(se.strip().splitlines()), 1, se)
        self.assertRegex(se, want)

    def test_bad_inputs(self):
        r = str(self.repo)
        self.check("not a git repository", "--kernel-tree", str(self.tmp / "plain"),
                   "--good", "HEAD~1", "--bad", "HEAD", "--scenario", "smoke")
        self.check("no such directory", "--kernel-tree", str(self.tmp / "nope"),
                   "--good", "a", "--bad", "b", "--scenario", "smoke")
        self.check("--good nosuch: not a commit", "--kernel-tree", r, "--good", "nosuch",
                   "--bad", "HEAD", "--scenario", "smoke")
        self.check("--bad HEAD:Makefile: not a commit", "--kernel-tree", r, "--good", "HEAD~1",
                   "--bad", "HEAD:Makefile", "--scenario", "smoke")
        self.check("not an ancestor", "--kernel-tree", r, "--good", "side", "--bad", "master",
                   "--scenario", "smoke")
        self.check("not an ancestor", "--kernel-tree", r, "--good", "HEAD", "--bad", "HEAD~1",
                   "--scenario", "smoke")
        self.check("same commit", "--kernel-tree", r, "--good", "HEAD", "--bad", "master",
                   "--scenario", "smoke")
        self.check("unknown scenario 'nope'", "--kernel-tree", r, "--good", "HEAD~1",
                   "--bad", "HEAD", "--scenario", "nope")
        self.check("do not apply", "--kernel-tree", r, "--good", "HEAD~1", "--bad", "HEAD",
                   "--kernel", "7.2")
        self.check("--good is required", "--kernel-tree", r, "--bad", "HEAD")
        self.check("--kernel is required", "--repo", r, "--good", "HEAD~1", "--bad", "HEAD")
        # nothing was left behind in the repository
        wt = subprocess.run(["git", "-C", r, "worktree", "list"], capture_output=True,
                            text=True).stdout.strip().splitlines()
        self.assertEqual(len(wt), 1, wt)


if __name__ == "__main__":
    unittest.main()
