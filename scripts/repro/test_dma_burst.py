# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of the pure logic of the dma-burst and offload-latency episodes (no QEMU):
    python3 -m unittest discover -s scripts/repro -t scripts
The bench-backed tests run only when build/bin/rtl8168-bench exists, the plot test only with
gnuplot installed."""
import shutil
import tempfile
import unittest
from pathlib import Path

from repro import common
from repro import dma_burst as d
from repro import offload_latency as o


def bench_like(burst, mtus):
    """A device-limited curve of the bench's shape: per segment, ceil(payload/burst) read
    round trips of 2.97 us plus the transfer, never faster than the wire."""
    out = {}
    for m in mtus:
        pay = m - 52
        reads = 1 if burst == "unlimited" else -(-pay // int(burst))
        dma_us = reads * 2.97 + pay * 1.3125 / 250.0
        wire_us = (m + 38) * 8 / 1000.0
        out[m] = pay * 8 / max(dma_us, wire_us)
    return out


class MtuLists(unittest.TestCase):
    def test_expand(self):
        self.assertEqual(d.expand_mtus("576,600:800:100,1076,600"), [576, 600, 700, 800, 1076])
        self.assertEqual(d.expand_mtus("1074:1078"), [1074, 1075, 1076, 1077, 1078])
        with self.assertRaises(ValueError):
            d.expand_mtus("900:800")

    def test_peaks(self):
        self.assertEqual(d.peak_mtus(1024), [1076])
        self.assertEqual(d.peak_mtus(512), [564, 1076])
        self.assertEqual(d.around([1076], 2, 2), [1074, 1075, 1076, 1077, 1078])

    def test_runs_cover_the_peaks(self):
        for drv in d.DRIVERS:
            for name, _dut, _p, _props, mxdma, mtus, _exp, kind in d.runs_for(drv):
                self.assertIn(1500, mtus, name)
                if kind == "sawtooth":
                    for p in d.peak_mtus(16 << mxdma):
                        self.assertTrue({p - 1, p, p + 1} <= set(mtus), (name, p))

    def test_wire(self):
        self.assertAlmostEqual(d.wire_goodput(1500), 941.48, places=2)
        self.assertEqual(d.burst_name(7), "unlimited")
        self.assertEqual(d.burst_name(6), "1024")


class Shape(unittest.TestCase):
    MTUS = d.expand_mtus("576,600:1500:50,1074:1078")

    def test_sawtooth_found(self):
        pts = bench_like("1024", self.MTUS)
        s = d.sawtooth(pts, 1024)
        self.assertEqual([x["peak"] for x in s], [1076])
        self.assertTrue(s[0]["ok"])
        self.assertLess(s[0]["ratio"], 0.85)

    def test_no_sawtooth_when_unlimited(self):
        pts = bench_like("unlimited", self.MTUS)
        self.assertFalse(any(x["ok"] for x in d.sawtooth(pts, 1024)))
        self.assertEqual(d.monotonic_violations(pts), [])
        self.assertEqual(d.above_line_rate(pts), [])

    def test_monotonic_tolerance(self):
        pts = {1000: 900.0, 1050: 895.0, 1100: 880.0}
        bad = d.monotonic_violations(pts)       # 895 is within 1 % of 900, 880 is not
        self.assertEqual([m for m, _, _ in bad], [1100])

    def test_line_rate(self):
        self.assertEqual(d.above_line_rate({1500: 941.0}), [])
        self.assertEqual([m for m, _, _ in d.above_line_rate({1500: 950.0})], [1500])

    def test_classify(self):
        # MTU 1500, burst 1024: the DUT's TX path (842) is the lowest bound
        self.assertEqual(d.classify(830.0, 842.3, 100.0, 1500), "dut-tx")
        self.assertEqual(d.classify(941.0, 941.5, 40.0, 1500), "wire")
        # within BENCH_TOL (2 %: 708.54 of 723) of the bench is the DUT's figure; further below
        # is the lab's
        self.assertEqual(d.classify(709.0, 723.0, 100.0, 576), "dut-tx")
        self.assertEqual(d.classify(708.0, 723.0, 100.0, 576), "cpu")
        self.assertEqual(d.classify(600.0, 723.0, 50.0, 576), "other")
        self.assertEqual(d.classify(465.0, None, 100.0, 565), "?")
        self.assertEqual(d.classify(None, 900.0, 100.0, 1500), "?")

    def test_bench_deviation(self):
        self.assertEqual(d.bench_deviation({1500: 834.0}, {}), (None, None))
        dev, mtu = d.bench_deviation({576: 712.0, 1500: 830.0, 1600: 1.0}, {576: 720.0, 1500: 839.0})
        self.assertEqual(mtu, 576)          # 1.1 % beats 1.07 %; 1600 has no bench figure
        self.assertAlmostEqual(dev, 8 / 720, places=6)


class Evaluate(unittest.TestCase):
    MTUS = d.expand_mtus("576,600:1500:50,1074:1078")

    def ev(self, kind, burst, pts, bench=None, limits=None):
        bench = bench if bench is not None else pts
        limits = limits or {m: "dut-tx" for m in pts}
        return d.evaluate(kind, burst, pts, bench, limits)

    def test_old_reproduced(self):
        pts = bench_like("1024", self.MTUS)
        bench = dict(pts)
        pts = {m: v * 0.985 for m, v in pts.items()}      # the lab sits ~1.5 % below
        obs, figs, _ = self.ev("sawtooth", "1024", pts, bench=bench)
        self.assertEqual(obs, common.REPRODUCED)
        self.assertIn("peak1076", figs)
        self.assertEqual(figs["bench_dev_max"], "1.50%")

    def test_lab_off_the_bench_is_inconclusive(self):
        pts = bench_like("1024", self.MTUS)
        bench = dict(pts)
        pts[700] = bench[700] * 0.97       # one point 3 % below the bench
        obs, _, reason = self.ev("sawtooth", "1024", pts, bench=bench)
        self.assertIsNone(obs)
        self.assertIn("MTU 700", reason)
        obs, _, reason = self.ev("monotonic", "unlimited", bench_like("unlimited", self.MTUS), bench={})
        self.assertIsNone(obs)
        self.assertIn("not checked", reason)

    def test_old_off_target_is_inconclusive(self):
        pts = bench_like("1024", self.MTUS)
        pts[1500] = 700.0
        obs, _, reason = self.ev("sawtooth", "1024", pts)
        self.assertIsNone(obs)
        self.assertIn("outside 842", reason)

    def test_fixed_clean(self):
        pts = bench_like("unlimited", self.MTUS)
        obs, figs, _ = self.ev("monotonic", "unlimited", pts)
        self.assertEqual(obs, common.CLEAN)
        self.assertEqual(figs["mono_violations"], 0)

    def test_fixed_with_sawtooth_is_reproduced(self):
        pts = bench_like("unlimited", self.MTUS)
        pts[1077] = pts[1076] * 0.8
        obs, _, _ = self.ev("monotonic", "unlimited", pts)
        self.assertEqual(obs, common.REPRODUCED)

    def test_1500_not_limited_by_the_dut_is_inconclusive(self):
        pts = bench_like("unlimited", self.MTUS)
        limits = {m: "wire" for m in pts}
        limits[1500] = "cpu"
        obs, _, reason = self.ev("monotonic", "unlimited", pts, limits=limits)
        self.assertIsNone(obs)
        self.assertIn("limited by cpu", reason)

    def test_drop_point_must_be_the_duts(self):
        pts = bench_like("1024", self.MTUS)
        limits = {m: "dut-tx" for m in pts}
        limits[1077] = "cpu"
        obs, _, reason = self.ev("sawtooth", "1024", pts, limits=limits)
        self.assertIsNone(obs)
        self.assertIn("drop point 1077", reason)

    def test_ceiling(self):
        obs, figs, _ = d.evaluate_ceiling({1500: 1038.0}, {1500: 941.0})
        self.assertEqual(obs, common.CLEAN)
        self.assertAlmostEqual(figs["headroom_1500"], 1.103, places=3)
        obs, _, _ = d.evaluate_ceiling({1500: 950.0}, {1500: 941.0})
        self.assertIsNone(obs)


class CsvPlot(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="dma-burst-test."))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def rows(self, series, burst, pts):
        return [{"series": series, "driver": "x", "mtu": m, "burst_bytes": burst, "mbps": v,
                 "bench_mbps": round(v * 1.01, 2), "wire_mbps": round(d.wire_goodput(m), 2)}
                for m, v in sorted(pts.items())]

    def test_merge_and_simple_csv(self):
        path = self.dir / "all.csv"
        a = bench_like("1024", [1000, 1076, 1077, 1500])
        d.merge_series(path, "rtl8168sim-burst1024", self.rows("rtl8168sim-burst1024", "1024", a))
        d.merge_series(path, "r8169", self.rows("r8169", "unlimited", {1500: 941.0}))
        allr = d.merge_series(path, "rtl8168sim-burst1024",
                              self.rows("rtl8168sim-burst1024", "1024", {1500: 842.0}))
        self.assertEqual(len(allr), 2)                       # replaced, not appended
        d.write_simple_csv(self.dir / "s.csv", allr)
        lines = (self.dir / "s.csv").read_text().splitlines()
        self.assertEqual(lines, ["mtu,burst_bytes,mbps", "1500,1024,842.0"])

    @unittest.skipUnless(shutil.which("gnuplot"), "gnuplot not installed")
    def test_plot(self):
        path = self.dir / "all.csv"
        mt = [576, 800, 1074, 1075, 1076, 1077, 1078, 1300, 1500]
        d.merge_series(path, "rtl8168sim-burst1024",
                       self.rows("rtl8168sim-burst1024", "1024", bench_like("1024", mt)))
        d.merge_series(path, "rtl8168sim-burstunlimited",
                       self.rows("rtl8168sim-burstunlimited", "unlimited", bench_like("unlimited", mt)))
        ok, msg = d.plot(path, self.dir / "p.png")
        self.assertTrue(ok, msg)
        self.assertEqual((self.dir / "p.png").read_bytes()[:8], b"\x89PNG\r\n\x1a\n")


@unittest.skipUnless(d.bench_path(), "build/bin/rtl8168-bench not built")
class Bench(unittest.TestCase):
    """The analysis applied to the standalone bench's own sweep (what check-bench checks)."""

    def test_bench_shapes(self):
        mt = d.expand_mtus("576,600:1500:50,1074:1078")
        b1024 = d.bench_sweep("1024", mt)
        bunl = d.bench_sweep("unlimited", mt)
        self.assertEqual(set(b1024), set(mt))
        self.assertTrue(all(s["ok"] for s in d.sawtooth(b1024, 1024)))
        self.assertEqual(d.monotonic_violations(bunl), [])
        self.assertEqual(d.above_line_rate(bunl), [])
        self.assertTrue(d.within(b1024[1500], 842.0) and d.within(bunl[1500], 940.0))


class OnAnotherChip(unittest.TestCase):
    """--chip NAME (repro ctx.chip): dma-burst's runs and bench, offload-latency's expectation."""
    dirs: list = []

    @classmethod
    def tearDownClass(cls):
        for d in cls.dirs:
            shutil.rmtree(d, ignore_errors=True)

    class Ctx:
        def __init__(self, chip, results):
            self.chip, self.results, self.calls, self.kernel = chip, results, [], "6.1"
            self.out = Path(tempfile.mkdtemp(prefix="repro-test."))
            OnAnotherChip.dirs.append(self.out)

        def log(self, _msg):
            pass

        def lab(self, case, dut, **kw):
            self.calls.append(dict(kw, case=case, dut=dut))
            results = self.results

            class Res:
                ok, status, reason, wall_s, out_dir, inputs = True, "PASS", "", 0.0, "", ""
                trace_hash, trace_events, twice_diff = {}, {}, []

                def __init__(self):
                    self.results = results

                def result(self, **m):
                    return next((r for r in self.results
                                 if all(r.get(k) == v for k, v in m.items())), {})
            return Res()

    def test_dma_burst_runs(self):
        # the default (no --chip, or the default chip) keeps its one stock run
        self.assertEqual([r[0] for r in d.runs_for("stock")], ["r8169"])
        self.assertEqual(d.runs_for("stock", None), d.runs_for("stock"))
        runs = d.runs_for("stock", "8168h")
        self.assertEqual([r[0] for r in runs], ["r8169", "r8169-burst1024"])
        name, dut, params, props, mxdma, mtus, expected, kind = runs[1]
        self.assertEqual((dut, props, mxdma, expected, kind),
                         ("r8169", "tx-mxdma=6", 6, common.REPRODUCED, "sawtooth"))
        self.assertTrue({1074, 1075, 1076, 1077, 1078, 1500} <= set(mtus))
        for chip in (None, "8168c"):
            self.assertIsNone(d.other_chip(self.Ctx(chip, [])))
        self.assertEqual(d.other_chip(self.Ctx("8168h", [])), "8168h")

    @unittest.skipUnless(d.bench_path(), "build/bin/rtl8168-bench not built")
    def test_bench_on_the_chip(self):
        """The bench the lab is compared with runs the chip's profile (an unknown chip gives
        nothing: the bench refused it), and shows the 2012 shape on the 8168h too."""
        mt = [1000, 1074, 1075, 1076, 1077, 1078, 1500]
        b = d.bench_sweep("1024", mt, chip="8168h")
        self.assertEqual(set(b), set(mt))
        self.assertEqual(d.bench_sweep("1024", mt, chip="8168zz"), {})
        [saw] = d.sawtooth(b, 1024)
        self.assertEqual(saw["peak"], 1076)
        self.assertTrue(saw["ok"])
        pts = {m: v * 0.995 for m, v in b.items()}   # a lab run that follows the bench
        limits = {m: d.classify(v, b[m], 50.0, m) for m, v in pts.items()}
        self.assertEqual(d.evaluate("sawtooth", "1024", pts, b, limits)[0], common.REPRODUCED)

    @unittest.skipUnless(d.bench_path(), "build/bin/rtl8168-bench not built")
    def test_a_faster_link_is_judged_at_its_own_line_rate(self):
        """A chip the model lists at 2500 Mbit/s (link_mbps): the line rate is its own and the
        MTU-1500 target is the bench's (the history's 940/842 are the 8168 at 1 Gbit/s); the
        sawtooth of a 1024-byte burst shows above 1 Gbit/s there."""
        self.assertEqual(d.link_mbps_of(None), 1000)
        self.assertEqual(d.link_mbps_of("8168h"), 1000)
        self.assertEqual(d.link_mbps_of("8125b"), 2500)
        self.assertAlmostEqual(d.wire_goodput(1500, 2500), 2353.7, places=1)
        mt = [1000, 1074, 1075, 1076, 1077, 1078, 1500]
        for burst, kind, want in (("1024", "sawtooth", common.REPRODUCED),
                                  ("unlimited", "monotonic", common.CLEAN)):
            b = d.bench_sweep(burst, mt, chip="8125b")
            self.assertGreater(b[1500], 1100, burst)   # above any 1 Gbit/s figure
            pts = {m: v * 0.995 for m, v in b.items()}
            limits = {m: d.classify(v, b[m], 50.0, m, 2500) for m, v in pts.items()}
            self.assertEqual(d.evaluate(kind, burst, pts, b, limits, 2500)[0], want, burst)
            # judged as at 1 Gbit/s the same figures are above the line rate: no verdict
            self.assertIsNone(d.evaluate(kind, burst, pts, b, limits)[0], burst)

    def test_offload_latency_defaults_follow_r8169(self):
        def row(combo, sg, tso, mean):
            return {"kind": "combo", "combo": combo, "sg": sg, "tso": tso, "tx": "on",
                    "mean_us": str(mean), "stddev_us": "5"}
        # r8169 left SG/TSO off (every kernel on the 8168c, 6.1/6.12 on the 8168h): the cost
        ctx = self.Ctx("8168h", [row("default", "off", "off", 800), row("on:on:on", "on", "on", 660)])
        cases = {c["case"]: c for c in o.run(ctx, "stock")}
        self.assertEqual(cases["r8169-defaults"]["expected"], common.REPRODUCED)
        self.assertEqual(cases["r8169-defaults"]["verdict"], common.REPRODUCED)
        # r8169 turned them on itself (7.2 on the 8168h): its defaults are the fix
        ctx = self.Ctx("8168h", [row("default", "on", "on", 661), row("on:on:on", "on", "on", 660)])
        cases = {c["case"]: c for c in o.run(ctx, "stock")}
        self.assertEqual(cases["r8169-defaults"]["expected"], common.CLEAN)
        self.assertEqual(cases["r8169-defaults"]["verdict"], common.CLEAN)
        self.assertEqual(cases["r8169-offloads"]["verdict"], common.CLEAN)
        # ... and a cost with them on is still caught
        ctx = self.Ctx("8168h", [row("default", "on", "on", 800), row("on:on:on", "on", "on", 660)])
        cases = {c["case"]: c for c in o.run(ctx, "stock")}
        self.assertEqual(cases["r8169-defaults"]["verdict"], common.UNEXPECTED)


class OffloadLatency(unittest.TestCase):
    def test_judge(self):
        old = {"mean_us": "800", "stddev_us": "4"}
        on = {"mean_us": "660", "stddev_us": "4"}
        self.assertEqual(o.judge(old, on)[0], common.REPRODUCED)
        self.assertEqual(o.judge(old, on)[1]["symptom"], "mean")
        self.assertEqual(o.judge(on, old)[1]["symptom"], "none")
        self.assertEqual(o.judge(on, old)[0], common.CLEAN)
        jittery = {"mean_us": "670", "stddev_us": "40"}
        self.assertEqual(o.judge(jittery, on)[0], common.REPRODUCED)   # stddev x10, +36 us
        slight = {"mean_us": "670", "stddev_us": "9"}
        self.assertEqual(o.judge(slight, on)[0], common.CLEAN)  # x2.25 but +5 us < 2 % of 660
        self.assertEqual(o.judge({"mean_us": "-"}, on), (None, {}))

    def test_plan(self):
        for drv, (_dut, combos, plan) in o.PLAN.items():
            for _name, x, y, exp in plan:
                self.assertIn(x, combos)
                self.assertIn(y, combos)
                self.assertIn(exp, (common.REPRODUCED, common.CLEAN))

    def test_table(self):
        t = o.table([{"driver": "old", "combo": "off:off:on", "mean_us": "800.0"}])
        self.assertIn("off:off:on", t)
        self.assertEqual(len(t.splitlines()), 3)


if __name__ == "__main__":
    unittest.main()
