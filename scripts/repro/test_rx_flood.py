# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of rx-flood's host-side check (docs/REGRESS.md): the model's drop counters of the
DUT against the tally the driver read (no QEMU):
    python3 -m unittest discover -s scripts/repro -t scripts"""
import unittest

from repro import rx_flood
from repro.test_fault_episodes import FakeLab


def lab(tally_total, **dut):
    r = FakeLab([{"what": "end", "tally_total": tally_total}])
    r.model_stats = {"dut": {"rx_dropped_no_desc": 0, **dut}}
    return r


class DropsAgree(unittest.TestCase):
    def test_no_desc_drops_equal_to_the_tally_agree(self):
        self.assertEqual(rx_flood.drops_agree(lab(27640, rx_dropped_no_desc=27640)), "")

    def test_the_tally_is_16_bits_wide(self):
        self.assertEqual(rx_flood.drops_agree(lab(70000 % 65536, rx_dropped_no_desc=70000)), "")

    def test_a_tally_that_differs_is_named(self):
        why = rx_flood.drops_agree(lab(27000, rx_dropped_no_desc=27640))
        self.assertIn("27640", why)
        self.assertIn("27000", why)

    def test_a_drop_for_another_reason_fails(self):
        why = rx_flood.drops_agree(lab(5, rx_dropped_no_desc=5, rx_dropped_dma=2))
        self.assertIn("rx_dropped_dma 2", why)

    def test_a_frame_before_the_receiver_is_on_is_no_failure(self):
        # the partner's link comes up first: its first frame finds the DUT's receiver off
        self.assertEqual(rx_flood.drops_agree(lab(9, rx_dropped_no_desc=9,
                                                  rx_dropped_disabled=1)), "")

    def test_no_model_counters_is_said(self):
        r = FakeLab([{"what": "end", "tally_total": 0}])
        self.assertIn("no model counters", rx_flood.drops_agree(r))


if __name__ == "__main__":
    unittest.main()
