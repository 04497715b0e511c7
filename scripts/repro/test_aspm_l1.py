# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of the aspm-l1 episode's verdict rule (docs/REPRODUCE.md), on RESULT lines and
model counters shaped like the lab case's (figures of the 6.1 runs of 2026-12-06; no QEMU):
    python3 -m unittest discover -s scripts/repro -t scripts"""
import unittest

from repro import aspm_l1, common
from repro.test_fault_episodes import FakeLab


def aspm_run(aspm=None, stream=None, stats=None, ok=True, ping="ok"):
    a = {"what": "aspm", "policy": "ok", "l1_before": 0, "l1_on": 1}
    a.update(aspm or {})
    s = {"what": "stream", "sent": 1200, "received": 1199, "lost": 1, "last_seq": 1199,
         "max_gap_us": 10012, "refused": 0, "tx_timeouts": 1, "stall_ms": 5004,
         "aspm_disabled_msgs": 1, "l1_after": 0}
    s.update(stream or {})
    lab = FakeLab([{"setup": "ok"}, a, s, {"what": "after", "ping": ping}], ok=ok)
    st = {"aspm_l1_entries": 4, "tx_doorbells_lost_l1": 2}
    st.update(stats or {})
    lab.model_stats = {"dut": st}
    return lab


def clean_run(**stream):
    s = {"received": 1200, "lost": 0, "tx_timeouts": 0, "stall_ms": 0, "aspm_disabled_msgs": 0}
    s.update(stream)
    return aspm_run({"l1_on": 0}, s, {"aspm_l1_entries": 0, "tx_doorbells_lost_l1": 0})


class AspmL1(unittest.TestCase):
    def test_timeout_that_disables_aspm_and_recovers_is_reproduced(self):
        obs, fig, why = aspm_l1.judge(aspm_run())
        self.assertEqual(obs, common.REPRODUCED, why)
        self.assertEqual(fig["stall_ms"], 5004)
        self.assertEqual(fig["doorbells_lost_l1"], 2)

    def test_reproduced_needs_every_link_of_the_chain(self):
        # L1 never enabled, no lost doorbell in the model, ASPM still on after, no recovery
        for kw in ({"aspm": {"l1_on": 0}}, {"stats": {"tx_doorbells_lost_l1": 0}},
                   {"stream": {"l1_after": 1}}, {"stream": {"aspm_disabled_msgs": 0}},
                   {"stream": {"last_seq": 503}}, {"ping": "failed"}):
            self.assertIsNone(aspm_l1.judge(aspm_run(**kw))[0], kw)

    def test_link_that_never_sleeps_is_clean(self):
        obs, fig, why = aspm_l1.judge(clean_run())
        self.assertEqual(obs, common.CLEAN, why)
        self.assertEqual(fig["aspm_l1_entries"], 0)

    def test_l1_enabled_by_the_os_alone_is_clean(self):
        # the fixed driver: Link Control has L1, the chip's ASPM_en is off, the link stays in L0
        obs, fig, why = aspm_l1.judge(aspm_run({"l1_on": 1}, {
            "received": 1200, "lost": 0, "tx_timeouts": 0, "stall_ms": 0,
            "aspm_disabled_msgs": 0, "l1_after": 1},
            {"aspm_l1_entries": 0, "tx_doorbells_lost_l1": 0}))
        self.assertEqual(obs, common.CLEAN, why)
        self.assertEqual(fig["l1_after"], "1")

    def test_clean_needs_no_timeout_no_loss_and_no_l1(self):
        self.assertIsNone(aspm_l1.judge(clean_run(tx_timeouts=1))[0])
        self.assertIsNone(aspm_l1.judge(clean_run(received=1190))[0])
        lab = clean_run()
        lab.model_stats["dut"]["aspm_l1_entries"] = 3
        self.assertIsNone(aspm_l1.judge(lab)[0])

    def test_failed_run_or_refused_policy_is_unexpected(self):
        obs, _, why = aspm_l1.judge(aspm_run(ok=False))
        self.assertIsNone(obs)
        self.assertIn("lab run", why)
        obs, _, why = aspm_l1.judge(aspm_run({"policy": "refused"}))
        self.assertIsNone(obs)
        self.assertIn("ASPM policy", why)

    def test_episode_declares_its_chip_and_drivers(self):
        self.assertEqual(aspm_l1.CHIPS, ("8168h",))
        self.assertEqual(aspm_l1.DRIVERS, ("old", "fixed", "stock"))
        self.assertTrue(aspm_l1.PATCH.is_file())
        case = aspm_l1.PATCH.parents[1] / "lab" / f"{aspm_l1.CASE}.sh"
        head = case.read_text()
        self.assertIn("# lab-dut-props: chip=8168h", head)
        self.assertIn("# lab-dut-port-props: x-aspm-l1=on", head)


if __name__ == "__main__":
    unittest.main()
