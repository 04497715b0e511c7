# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of rx-bad's host-side check of the wire errors (docs/REGRESS.md): the model's
counters of the DUT against what the partner sent (no QEMU):
    python3 -m unittest discover -s scripts/repro -t scripts"""
import unittest

from repro import rx_bad
from repro.test_fault_episodes import FakeLab

WIRE = [{"what": "wire", "rx_all": "off", "per_kind": 6},
        {"what": "wire", "rx_all": "on", "per_kind": 6}]
AGREE = {"rx_dropped_bad_fcs": 6, "rx_dropped_short": 6, "rx_dropped_too_long": 6,
         "rx_error_frames": 18, "faults_fired": 36}


def lab(results=WIRE, **dut):
    r = FakeLab(results)
    r.model_stats = {"dut": {**AGREE, **dut}} if dut is not None else {}
    return r


class WireCheck(unittest.TestCase):
    def test_counters_that_match_what_was_sent_agree(self):
        self.assertEqual(rx_bad.wire_check(lab()), "")

    def test_a_discard_counted_as_another_kind_is_named(self):
        why = rx_bad.wire_check(lab(rx_dropped_short=5, rx_dropped_too_long=7))
        self.assertIn("rx_dropped_short 5 (sent 6)", why)
        self.assertIn("rx_dropped_too_long 7 (sent 6)", why)

    def test_a_taken_frame_missing_is_named(self):
        self.assertIn("rx_error_frames 17 (sent 18)",
                      rx_bad.wire_check(lab(rx_error_frames=17)))

    def test_a_fault_that_fired_on_other_traffic_is_named(self):
        self.assertIn("faults_fired 37", rx_bad.wire_check(lab(faults_fired=37)))

    def test_no_model_counters_is_said(self):
        r = FakeLab(WIRE)
        r.model_stats = {}
        self.assertIn("no model counters", rx_bad.wire_check(r))

    def test_a_case_without_wire_results_is_said(self):
        self.assertIn("no wire-error results", rx_bad.wire_check(lab(results=[])))

    def test_figures_carry_the_rx_all_on_counts(self):
        r = FakeLab([{"what": "wire", "rx_all": "on", "per_kind": 6, "rx_crc_errors": "+6",
                      "rx_length_errors": "+12"}])
        self.assertEqual(rx_bad.figures(r), {"wire_per_kind": "6", "wire_rx_crc_errors": "+6",
                                             "wire_rx_length_errors": "+12"})


if __name__ == "__main__":
    unittest.main()
