# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/derive-timing recovers the DMA path it is given: the bench computes a peak/drop pair
for known parameters, derive-timing solves them back from the pair alone.
    RTL8168_BENCH=build/bin/rtl8168-bench python3 scripts/test_derive_timing.py
(run as a file, like derive-timing itself: scripts/ is then the import root of repro.dma_burst)"""
import importlib.machinery
import importlib.util
import io
import contextlib
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
_loader = importlib.machinery.SourceFileLoader("derive_timing", str(HERE / "derive-timing"))
_spec = importlib.util.spec_from_loader("derive_timing", _loader)
dt = importlib.util.module_from_spec(_spec)
_loader.exec_module(dt)


class DeriveTiming(unittest.TestCase):
    def setUp(self):
        self.bench = dt.bench_path()
        self.d = dt.defaults(self.bench)

    def pair(self, burst, peak_mtu, latency, rate):
        prm = {"pcie-read-latency": latency, "dma-read-rate": rate}
        return (dt.bench_mbps(self.bench, burst, peak_mtu, prm),
                dt.bench_mbps(self.bench, burst, peak_mtu + 1, prm))

    def test_closed_form_inverts_itself(self):
        # peak and drop of an ideal DMA engine (no per-packet reads) give back L and r exactly
        latency, r, burst, k = 2000.0, 6.0, 512, 1
        lam = latency / (burst * r)
        peak = 8000 / (r * (1 + lam))
        drop = peak * k * (1 + lam) / (k * (1 + lam) + lam)
        got_l, got_r = dt.solve_pair(burst, k * burst + 52, peak, drop)
        self.assertAlmostEqual(got_l, latency, delta=0.5)
        self.assertAlmostEqual(got_r, r, delta=1e-6)

    def test_recovers_a_chip_limited_path(self):
        peak, drop = self.pair(512, 564, 2000, 160)
        latency, r = dt.fit_pair(self.bench, self.d, 512, 564, peak, drop)
        self.assertAlmostEqual(latency, 2000, delta=40)
        self.assertAlmostEqual(1000 / r, 160, delta=2)

    def test_recovers_the_defaults(self):
        peak, drop = self.pair(512, 564, int(self.d["pcie-read-latency"]), 0)
        latency, r = dt.fit_pair(self.bench, self.d, 512, 564, peak, drop)
        self.assertAlmostEqual(latency, float(self.d["pcie-read-latency"]), delta=40)
        self.assertAlmostEqual(r, dt.link_ns_per_byte(self.d), delta=0.03)

    def test_bad_pairs_are_refused(self):
        for args in ((512, 565, 700.0, 500.0), (512, 564, 500.0, 700.0), (512, 564, 700.0, 10.0)):
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                dt.solve_pair(*args)


if __name__ == "__main__":
    unittest.main()
