# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of the episodes' shared pieces in common.py: old_fixed_stock, the run() of the
one-lab-run episodes (which lab run each driver gets: DUT driver, module parameter, run
directory; and the verdict it leads to), lab_result and counts (no QEMU):  python3 -m unittest discover -s scripts/repro -t scripts"""
import unittest

from repro import common
from repro import txpoll_stall
from repro import unsolicited_syserr as syserr


class Res:
    ok, status, reason, results = True, "PASS", "", []

    def result(self, **_match):
        return {}


class Ctx:
    """Records the ctx.lab calls; every run returns the same Res."""

    def __init__(self, kernel="6.1"):
        self.kernel = kernel
        self.calls = []

    def lab(self, case, dut_driver, **kw):
        self.calls.append(dict(kw, case=case, dut=dut_driver))
        return Res()


def judge_observes(observed):
    """A judge that sees what the helper passes and observes `observed`."""
    seen = []

    def judge(res, sim):
        seen.append(sim)
        return observed, {"sim": int(sim)}, "why"
    return judge, seen


class OldFixedStock(unittest.TestCase):
    def test_each_driver_gets_its_lab_run_and_expectation(self):
        judge, seen = judge_observes(common.REPRODUCED)
        want = {"old": ("rtl8168sim", "p=0", common.REPRODUCED),
                "fixed": ("rtl8168sim", "p=1", common.UNEXPECTED),
                "stock": ("r8169", "", common.UNEXPECTED)}
        for driver, (dut, params, verdict) in want.items():
            ctx = Ctx()
            [c] = common.old_fixed_stock(ctx, driver, "ep", "case", "p", judge,
                                         args={"n": 1}, props="chip=x")
            self.assertEqual(ctx.calls, [{"case": "case", "dut": dut, "params": params,
                                          "args": {"n": 1}, "props": "chip=x",
                                          "tag": f"ep-{driver}"}])
            self.assertEqual((c["episode"], c["driver"], c["case"]), ("ep", driver, "case"))
            self.assertEqual(c["verdict"], verdict)
        self.assertEqual(seen, [True, True, False])

    def test_values_stock_expectation_and_untagged_runs(self):
        judge, _ = judge_observes(common.REPRODUCED)
        ctx = Ctx()
        c = common.old_fixed_stock(ctx, "old", "ep", "case", "p", judge, old=1, fixed=0,
                                   tagged=False)[0]
        self.assertEqual((ctx.calls[0]["params"], ctx.calls[0]["tag"]), ("p=1", None))
        self.assertEqual(c["expected"], common.REPRODUCED)
        c = common.old_fixed_stock(Ctx(), "stock", "ep", "case", "p", judge,
                                   stock_expected=common.REPRODUCED)[0]
        self.assertEqual(c["verdict"], common.REPRODUCED)

    def test_episodes_keep_their_parameters(self):
        ctx = Ctx()
        txpoll_stall.run(ctx, "old")
        syserr.run(ctx, "old")
        syserr.run(ctx, "fixed")
        self.assertEqual([(c["params"], c["tag"]) for c in ctx.calls],
                         [("txpoll_rekick=0", None),
                          ("syserr_pcierr=1", "unsolicited-syserr-old"),
                          ("syserr_pcierr=0", "unsolicited-syserr-fixed")])


class Chips(unittest.TestCase):
    """--chip NAME: episodes tied to a chip (CHIPS) are left out on others; the lab runs get
    the chip; reproduce refuses an unknown one (one line, exit 2, nothing written)."""

    def test_applies(self):
        from repro import evl_sg_cap, evl_short_csum, evl_tso, msi_lost_irq
        for mod in (evl_sg_cap, evl_short_csum, evl_tso):
            self.assertEqual(mod.CHIPS, ("8168evl",))
            self.assertTrue(common.applies_to_chip(mod, None))      # no --chip: its own chip
            self.assertTrue(common.applies_to_chip(mod, "8168evl"))
            self.assertFalse(common.applies_to_chip(mod, "8168h"))
            self.assertIn("8168evl", common.not_on_chip(mod.NAME, mod, "8168h"))
        for chip in (None, "8168c", "8168h"):
            self.assertTrue(common.applies_to_chip(msi_lost_irq, chip))

    def test_runner_passes_the_chip(self):
        from pathlib import Path
        from repro import labrun
        spec = labrun.Runner("6.1", Path("/o")).spec("txpoll", "r8169")
        self.assertIsNone(spec.chip)
        self.assertNotIn("--chip", spec.command_args())
        spec = labrun.Runner("6.1", Path("/o"), chip="8168h").spec("txpoll", "r8169",
                                                                    props="x=1")
        self.assertEqual((spec.chip, spec.dut_props), ("8168h", "x=1"))
        self.assertEqual(common.Context("6.1", Path("/o"), None, chip="8168h").chip, "8168h")
        self.assertIsNone(common.Context("6.1", Path("/o"), None).chip)

    def test_runner_scales_the_wall_timeout_on_a_debug_kernel(self):
        from pathlib import Path
        from lablib import kernelpkg
        from repro import labrun
        factor = kernelpkg.DEBUG_TIMEOUT_FACTOR
        self.assertEqual(labrun.Runner("6.12", Path("/o")).spec("rx-bad", "r8169").timeout, 300)
        self.assertEqual(labrun.Runner("6.12-debug", Path("/o")).spec("rx-bad", "r8169").timeout,
                         300 * factor)
        # an episode's own per-case timeout is scaled the same way
        self.assertEqual(labrun.Runner("6.12-debug", Path("/o"))
                         .spec("rx-bad", "r8169", timeout=500).timeout, 500 * factor)
        self.assertEqual(labrun.Runner("6.1", Path("/o")).spec("rx-bad", "r8169",
                                                               timeout=500).timeout, 500)

    def test_reproduce_unknown_chip(self):
        import shutil
        import subprocess
        import sys
        import tempfile
        from pathlib import Path
        tmp = Path(tempfile.mkdtemp(prefix="repro-test."))
        self.addCleanup(shutil.rmtree, tmp, True)
        script = Path(__file__).resolve().parent.parent / "reproduce"
        p = subprocess.run([sys.executable, str(script), "all", "--chip", "8168zz", "--out",
                            str(tmp / "out")], capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 2, p.stderr)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertRegex(lines[0], r"^reproduce: error: unknown chip '8168zz' \(known: .*8168h")
        self.assertFalse((tmp / "out").exists())


class ResultFields(unittest.TestCase):
    class Run:
        def __init__(self, ok, results):
            self.ok, self.results = ok, results
            self.status, self.reason = ("PASS", "") if ok else ("FAIL", "guest deadline")

        def result(self, **match):
            return next((d for d in self.results
                         if all(d.get(k) == v for k, v in match.items())), {})

    def test_lab_result(self):
        run = self.Run(True, [{"what": "a", "n": "1"}, {"what": "b", "n": "x"}])
        self.assertEqual(common.lab_result(run, "none", what="b"), ({"what": "b", "n": "x"}, ""))
        self.assertEqual(common.lab_result(run, "no RESULT what=c", what="c"),
                         (None, "lab run PASS: no RESULT what=c"))
        failed = self.Run(False, [{"what": "b"}])
        self.assertEqual(common.lab_result(failed, "none", what="b"),
                         (None, "lab run FAIL: guest deadline"))

    def test_counts(self):
        self.assertEqual(common.counts({"a": "3", "b": "x", "c": "2.5"}, "a", "b", "c", "d"),
                         [3, 0, 2.5, 0])


if __name__ == "__main__":
    unittest.main()
