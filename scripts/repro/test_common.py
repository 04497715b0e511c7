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
