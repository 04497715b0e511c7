# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of the rtl8125-short-udp episode's verdict rule (docs/REPRODUCE.md), on RESULT
lines shaped like the lab case's and a QEMU log with the model's tx_stopped trace (no QEMU):
    python3 -m unittest discover -s scripts/repro -t scripts"""
import tempfile
import unittest
from pathlib import Path

from repro import common, rtl8125_short_udp as ep
from repro.test_fault_episodes import FakeLab

LOG_HANG = ("rtl8168_tx_stopped @901234 reason=2 idx=7\n"
            "rtl8168_tx_stopped @7001234 reason=2 idx=0\n")


def run(tmp, ptp=None, udp=None, after=None, log=LOG_HANG, ok=True):
    u = {"what": "udp", "sent": 1000, "received": 1000}
    u.update(udp or {})
    p = {"what": "ptp", "sent": 2, "received": 0, "tx_timeouts": 2, "timeout_msgs": 2}
    p.update(ptp or {})
    a = {"what": "after", "sent": 1000, "received": 1000, "ping": "ok"}
    a.update(after or {})
    lab = FakeLab([{"setup": "ok"}, u, p, a], ok=ok)
    d = Path(tempfile.mkdtemp(dir=tmp))
    if log is not None:
        (d / "qemu.log").write_text(log)
    lab.out_dir = str(d)
    return lab


class ShortUdp(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def clean(self, **kw):
        kw.setdefault("ptp", {"received": 2, "tx_timeouts": 0, "timeout_msgs": 0})
        kw.setdefault("log", "")
        return run(self.tmp, **kw)

    def test_hang_timeout_and_recovery_is_reproduced(self):
        obs, fig, why = ep.judge(run(self.tmp))
        self.assertEqual(obs, common.REPRODUCED, why)
        self.assertEqual(fig["hangs"], 2)
        self.assertEqual(fig["ptp"], "0/2")

    def test_reproduced_needs_the_model_hang_and_the_watchdog(self):
        self.assertIsNone(ep.judge(run(self.tmp, log="rtl8168_tx_stopped @1 reason=1 idx=0\n"))[0])
        self.assertIsNone(ep.judge(run(self.tmp, log=None))[0])
        self.assertIsNone(ep.judge(run(self.tmp, ptp={"tx_timeouts": 0}))[0])

    def test_network_must_come_back_and_ordinary_udp_arrive(self):
        self.assertIsNone(ep.judge(run(self.tmp, after={"received": 12}))[0])
        self.assertIsNone(ep.judge(run(self.tmp, after={"ping": "failed"}))[0])
        self.assertIsNone(ep.judge(run(self.tmp, udp={"received": 999}))[0])

    def test_everything_arriving_without_hang_is_clean(self):
        obs, fig, why = ep.judge(self.clean())
        self.assertEqual(obs, common.CLEAN, why)
        self.assertEqual(fig["hangs"], 0)

    def test_clean_needs_no_loss_no_timeout_no_hang(self):
        self.assertIsNone(ep.judge(self.clean(ptp={"received": 1, "tx_timeouts": 0}))[0])
        self.assertIsNone(ep.judge(self.clean(ptp={"received": 2, "tx_timeouts": 1}))[0])
        self.assertIsNone(ep.judge(self.clean(log=LOG_HANG))[0])

    def test_failed_run_is_unexpected(self):
        obs, _, why = ep.judge(run(self.tmp, ok=False))
        self.assertIsNone(obs)
        self.assertIn("FAIL", why)


if __name__ == "__main__":
    unittest.main()
