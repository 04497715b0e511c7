# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of the verdict rules of the error-path episodes (unsolicited-syserr,
rx-maxsize-spill, tx-timeout-recovery; docs/REPRODUCE.md), on RESULT lines shaped like the lab
cases' (no QEMU):  python3 -m unittest discover -s scripts/repro -t scripts"""
import unittest

from repro import common
from repro import rx_maxsize_spill as spill
from repro import tx_timeout_recovery as txto
from repro import unsolicited_syserr as syserr


class FakeLab:
    """The part of lablib.lab.LabRun the judges read."""

    def __init__(self, results, ok=True):
        self.results = [{k: str(v) for k, v in r.items()} for r in results]
        self.ok = ok
        self.status = "PASS" if ok else "FAIL"
        self.reason = "" if ok else "guest deadline"

    def result(self, **match):
        for d in self.results:
            if all(d.get(k) == str(v) for k, v in match.items()):
                return d
        return {}


def syserr_run(**kw):
    r = {"what": "syserr", "sent": 3000, "received": 3000, "lost": 0, "max_gap_us": 2100,
         "pci_errors": 0, "carrier_changes": 0, "resets": 0, "syserr_seen": 3}
    r.update(kw)
    return FakeLab([r])


class Syserr(unittest.TestCase):
    def test_reset_with_loss_is_reproduced(self):
        obs, fig, _ = syserr.judge(syserr_run(pci_errors=3, resets=3, lost=1650,
                                              max_gap_us=620000, carrier_changes=6), True)
        self.assertEqual(obs, common.REPRODUCED)
        self.assertEqual(fig["pci_errors"], 3)

    def test_quiet_run_is_clean_only_if_the_fault_reached_the_driver(self):
        self.assertEqual(syserr.judge(syserr_run(), True)[0], common.CLEAN)
        obs, _, why = syserr.judge(syserr_run(syserr_seen=0), True)
        self.assertIsNone(obs)
        self.assertIn("SYSErr", why)
        # stock r8169 has no such counter: CLEAN on the traffic alone
        self.assertEqual(syserr.judge(syserr_run(resets="-", syserr_seen="-"), False)[0],
                         common.CLEAN)

    def test_mixed_figures_are_unexpected(self):
        self.assertIsNone(syserr.judge(syserr_run(pci_errors=1), False)[0])
        self.assertIsNone(syserr.judge(syserr_run(lost=5), True)[0])
        self.assertIsNone(syserr.judge(FakeLab([], ok=False), True)[0])


def spill_run(**kw):
    r = {"what": "spill", "sent": 20, "size": 4000, "outer": 20, "inner": 0, "injected": 0,
         "rx_packets": 20, "rx_length_errors": 0, "ip_truncated": 0, "fragments": 0}
    r.update(kw)
    return FakeLab([r])


class Spill(unittest.TestCase):
    def test_injected_inner_frame_is_reproduced(self):
        obs, fig, _ = spill.judge(spill_run(outer=0, inner=20, injected=20, rx_packets=60,
                                            ip_truncated=20, fragments=60))
        self.assertEqual(obs, common.REPRODUCED)
        self.assertEqual(fig["injected"], "20/20")

    def test_whole_frames_are_clean(self):
        self.assertEqual(spill.judge(spill_run())[0], common.CLEAN)
        self.assertEqual(spill.judge(spill_run(fragments="-"))[0], common.CLEAN)

    def test_lost_frames_without_injection_are_unexpected(self):
        self.assertIsNone(spill.judge(spill_run(outer=3))[0])
        self.assertIsNone(spill.judge(spill_run(sent=0, outer=0))[0])


def txto_run(**kw):
    r = {"what": "tx-timeout", "sent": 10000, "received": 6500, "lost": 3500,
         "max_gap_us": 7100000, "gap_at_ms": 1000, "after_gap": 5900, "tail_ms": 2010,
         "tx_timeouts": 1, "resets": 1, "bql_inflight": 0, "bql_limit": 1700}
    r.update(kw)
    return FakeLab([r, {"what": "after", "ping": "ok"}])


class TxTimeout(unittest.TestCase):
    def test_recovered_stream_is_clean(self):
        obs, fig, _ = txto.judge(txto_run())
        self.assertEqual(obs, common.CLEAN)
        self.assertEqual(fig["ping_after"], "ok")

    def test_stream_that_never_resumes_is_reproduced(self):
        obs, _, _ = txto.judge(txto_run(received=500, max_gap_us=2100, after_gap=250,
                                        tail_ms=19000, tx_timeouts=3, bql_inflight=27136))
        self.assertEqual(obs, common.REPRODUCED)

    def test_no_watchdog_is_unexpected(self):
        obs, _, why = txto.judge(txto_run(tx_timeouts=0))
        self.assertIsNone(obs)
        self.assertIn("watchdog", why)
        # the watchdog fired but the stream never stopped: the fault did not bite
        self.assertIsNone(txto.judge(txto_run(max_gap_us=3000, after_gap=9000))[0])


if __name__ == "__main__":
    unittest.main()
