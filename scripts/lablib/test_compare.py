# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of scripts/compare-nics' table and JSON (lablib/compare.py) and of the run-guest
output parser it reads runs through (lablib.protocol.parse_report), on run-guest output shaped
like the throughput scenario's (no QEMU):
    python3 -m unittest discover -s scripts/lablib -t scripts"""
import json
import shutil
import tempfile
import unittest
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

from lablib import compare, protocol

PASS = "VERDICT PASS throughput 6.1 rtl8168 ok (wall 61.5s)"


def report(tx=None, rx=None, tps=None, verdict=PASS, sink_mbps=None):
    """run-guest's output of one throughput run (CRLF, as a serial console copy may have)."""
    lines = ["GUEST kernel=6.1.0-28-amd64 nic=rtl8168",
             "RESULT scenario=throughput features sg=on tx=on tso=off",
             # a failed transfer carries no figure
             "RESULT scenario=throughput dir=rx rc=1 tool=stream-recv status=fail bytes=0 ns=0"]
    if tx is not None:
        lines.append(f"RESULT scenario=throughput dir=tx rc=0 tool=stream-send status=ok "
                     f"bytes=1000 ns=2000 mbps={tx}")
    if rx is not None:
        lines.append(f"RESULT scenario=throughput dir=rx rc=0 tool=stream-recv status=ok "
                     f"bytes=3000 ns=4000 mbps={rx}")
    if tps is not None:
        lines.append(f"RESULT scenario=throughput dir=rr rc=0 tool=rr status=ok "
                     f"transactions=2000 tps={tps} mean_ns=2500 stddev_ns=500 min_ns=1000 "
                     f"p50_ns=2400 p99_ns=9000 max_ns=12000")
    if sink_mbps is not None:
        lines.append('PEER sink {"connections": [{"mbps": %s}]}' % sink_mbps)
    lines.append("PEER source (no JSON; log: refused )")
    lines.append("  | VERDICT PASS throughput from the console tail, not the host's line")
    if verdict:
        lines.append(verdict)
    return "\r\n".join(lines) + "\r\n"


class ParseReport(unittest.TestCase):
    def test_lines_by_kind(self):
        r = protocol.parse_report(report(tx=900, sink_mbps=880.5))
        self.assertEqual(len(r.results), 3)
        self.assertEqual(r.guest, ["GUEST kernel=6.1.0-28-amd64 nic=rtl8168"])
        self.assertEqual(set(r.peers), {"sink", "source"})
        self.assertEqual(json.loads(r.peers["sink"]), {"connections": [{"mbps": 880.5}]})
        self.assertEqual(r.verdict_line, PASS)
        self.assertEqual((r.verdict.kind, r.verdict.reason, r.verdict.wall_s, r.has_wall),
                         (protocol.Kind.PASS, "ok", 61.5, True))

    def test_no_verdict_and_no_wall(self):
        self.assertIsNone(protocol.parse_report(report(verdict="")).verdict)
        r = protocol.parse_report(report(verdict="VERDICT TIMEOUT throughput 6.1 e1000e no end"))
        self.assertEqual((r.verdict.kind, r.verdict.reason, r.has_wall),
                         (protocol.Kind.TIMEOUT, "no end", False))


class Compare(unittest.TestCase):
    def setUp(self):
        self.dir = Path(tempfile.mkdtemp(prefix="compare-test."))
        self.rows = []

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def run_of(self, row, n, rc=0, **kw):
        d = self.dir / f"{row}-{n}"
        d.mkdir()
        (d / "run-guest.txt").write_text(report(**kw))
        nic = row.split("-")[0]
        self.rows.append("\t".join([row, nic, "", "", str(n), str(rc), str(d)]))

    def main(self, check="0"):
        tsv = self.dir / "runs.tsv"
        tsv.write_text("\n".join(self.rows) + "\n")
        out, js = StringIO(), self.dir / "out.json"
        with redirect_stdout(out):
            rc = compare.main([str(tsv), str(js), "6.1", "64M", "2000", "2", "qemu", "QEMU 10",
                               "1.0 1.0 1.0", "2.0 2.0 2.0", "42", check])
        return rc, out.getvalue(), json.loads(js.read_text())

    def test_medians_ratios_and_target(self):
        self.run_of("rtl8168", 1, tx=300, rx=200, tps=1000, sink_mbps=290)
        self.run_of("e1000e", 1, tx=100, rx=400, tps=500)
        self.run_of("rtl8168", 2, tx=500, rx=100, tps=3000)
        self.run_of("e1000e", 2, rc=1, verdict="")   # no figures: not in the medians
        rc, text, doc = self.main()
        self.assertEqual(rc, 0)
        rows = {r["row"]: r for r in doc["rows"]}
        self.assertEqual(rows["rtl8168"]["median"]["tx_mbps"], 400.0)
        self.assertEqual(rows["rtl8168"]["median"]["rx_mbps"], 150.0)
        self.assertEqual(rows["rtl8168"]["median"]["rr_tps"], 2000.0)
        self.assertEqual((rows["e1000e"]["ok_runs"], len(rows["e1000e"]["runs"])), (1, 2))
        self.assertEqual(rows["e1000e"]["median"]["tx_mbps"], 100.0)
        first = rows["rtl8168"]["runs"][0]
        self.assertEqual(first["tx"], {"mbps": 300.0, "bytes": 1000, "ns": 2000,
                                       "host_mbps": 290})
        self.assertEqual((first["verdict"], first["wall_seconds"], first["guest_kernel"]),
                         (PASS, 61.5, "6.1.0-28-amd64"))
        self.assertEqual(first["features"], {"sg": "on", "tx": "on", "tso": "off"})
        self.assertIsNone(rows["e1000e"]["runs"][1]["verdict"])
        self.assertEqual(doc["ratios"]["rtl8168/e1000e"], {"tx": 4.0, "rx": 0.375, "rr_tps": 4.0})
        self.assertEqual(doc["targets"]["rtl8168/e1000e rx"], {"ratio": 0.375, "met": False})
        self.assertFalse(doc["targets_met"])
        self.assertIn("NOT MET (rtl8168/e1000e rx 0.38)", text)
        self.assertIn("rtl8168 (timing=off)        400.0      150.0         2.5       0.5"
                      "      2000.0  2/2       on/off", text)
        self.assertEqual(self.main(check="1")[0], 3)   # --check: compare-nics exits 1

    def test_target_met_and_not_evaluated(self):
        self.run_of("rtl8168", 1, tx=300, rx=300, tps=10)
        self.run_of("rtl8139", 1, tx=100, rx=300, tps=10)
        rc, text, doc = self.main(check="1")
        self.assertEqual((rc, doc["targets_met"]), (0, True))
        self.assertIn("(ratio >= 1.0): MET", text)
        self.rows = [r for r in self.rows if r.startswith("rtl8139")]
        rc, text, doc = self.main(check="1")
        self.assertEqual((doc["ratios"], doc["targets_met"]), ({}, None))
        self.assertIn("target: not evaluated", text)


if __name__ == "__main__":
    unittest.main()
