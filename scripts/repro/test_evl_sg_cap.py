# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of the evl-sg-cap episode's verdict rule (no QEMU):
    python3 -m unittest discover -s scripts/repro -t scripts
The bench-backed test runs only when build/bin/rtl8168-bench exists."""
import unittest

from repro import evl_sg_cap as e

SG_ON = {"sg": "on", "tso": "off"}
SG_OFF = {"sg": "off", "tso": "off"}


class Judge(unittest.TestCase):
    def test_capped_and_explained_by_the_bench_is_reproduced(self):
        obs, figs, _ = e.judge(800.0, SG_ON, True, 805.0, 941.0)
        self.assertEqual(obs, "REPRODUCED")
        self.assertEqual(figs["vs_sg_off"], round(800 / 941, 3))

    def test_not_capped_is_clean(self):
        obs, _, _ = e.judge(935.0, SG_OFF, False, 941.0, 941.0)
        self.assertEqual(obs, "CLEAN")

    def test_a_figure_the_bench_does_not_explain_is_no_observation(self):
        # 700 is capped, but 13 % below the device's figure: the guest CPU, not the chip
        obs, _, reason = e.judge(700.0, SG_ON, True, 805.0, 941.0)
        self.assertIsNone(obs)
        self.assertIn("apart", reason)

    def test_the_wrong_offloads_in_force_is_no_observation(self):
        obs, _, reason = e.judge(800.0, {"sg": "on", "tso": "on"}, True, 805.0, 941.0)
        self.assertIsNone(obs)
        self.assertIn("tso=on", reason)

    def test_without_the_bench_nothing_is_claimed(self):
        obs, _, _ = e.judge(800.0, SG_ON, True, None, None)
        self.assertIsNone(obs)


@unittest.skipUnless(e.dma_burst.bench_path(), "build/bin/rtl8168-bench not built")
class Bench(unittest.TestCase):
    def test_the_bench_caps_sg_csum_and_not_csum(self):
        sg, plain = e.bench_mbps("sg-csum"), e.bench_mbps("csum")
        self.assertIsNotNone(sg)
        self.assertIsNotNone(plain)
        self.assertLessEqual(sg / plain, e.CAP_RATIO)
        self.assertLess(abs(sg - e.HISTORY_MBPS) / e.HISTORY_MBPS, 0.05)


if __name__ == "__main__":
    unittest.main()
