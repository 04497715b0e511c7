# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of scripts/lablib/faultctl.py (CTest scripts.lablib-unit): the ctl requests read
from the console, the HMP command each becomes, the answers (the device's JSON flattened, the
model's refusal passed on), each request answered once, in order, over a real unix socket.

  python3 -m unittest discover -s scripts/lablib -t scripts -p 'test_faultctl.py'"""
import json
import shutil
import socket
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True

from lablib import faultctl

LIST = {"faults": [{"index": 0, "spec": "rx-withhold:nth=200,count=16", "class": "rx-withhold",
                    "state": "done", "seen": 215, "fired": 16, "next": None}],
        "tx_stalled": False, "fired_total": 16}


def hmp_str(doc):
    """What HMP qom-get prints for a str property holding JSON."""
    return json.dumps(json.dumps(doc)) + "\n"


class Requests(unittest.TestCase):
    def test_parse(self):
        steps = ["STEP scenario=faults faults-begin",
                 "STEP scenario=faults ctl 1 fault-list",
                 "STEP scenario=faults ctl 2 fault-add dma-read:nth=300",
                 "STEP scenario=other ctl 3 fault-clear",
                 "STEP scenario=faults ctl 3 fault-add a;b:x=1,y=2"]
        self.assertEqual(faultctl.requests(steps, "faults"),
                         [(1, "fault-list", ""), (2, "fault-add", "dma-read:nth=300"),
                          (3, "fault-add", "a;b:x=1,y=2")])

    def test_request_still_being_written_waits(self):
        # The console is read while the guest writes it: a request line without its newline yet
        # is not a request (it was once served as "ctl 14 f", an unknown request).
        from lablib import protocol
        partial = "STEP scenario=faults ctl 13 stats\nSTEP scenario=faults ctl 14 f"
        self.assertEqual(faultctl.requests(protocol.complete_steps(partial), "faults"),
                         [(13, "stats", "")])
        done = partial + "ault-list\n"
        self.assertEqual(faultctl.requests(protocol.complete_steps(done), "faults"),
                         [(13, "stats", ""), (14, "fault-list", "")])

    def test_commands(self):
        self.assertEqual(faultctl.hmp_command("fault-add", "link:down"),
                         "qom-set nic0 fault-add link:down")
        self.assertEqual(faultctl.hmp_command("fault-clear", ""),
                         "qom-set nic0 fault-clear true")
        self.assertEqual(faultctl.hmp_command("fault-list", ""), "qom-get nic0 fault-list")
        self.assertEqual(faultctl.hmp_command("stats", ""), "qom-get nic0 x-stats")
        self.assertIsNone(faultctl.hmp_command("fault-add", ""))
        self.assertIsNone(faultctl.hmp_command("reboot", ""))


class Answers(unittest.TestCase):
    def test_set(self):
        self.assertEqual(faultctl.answer("fault-add", ""), "OK")
        self.assertEqual(faultctl.answer("fault-add", "Error: rtl8168: dma-read: nth=0: ...\n"),
                         "ERR Error: rtl8168: dma-read: nth=0: ...")

    def test_list_flattened(self):
        self.assertEqual(faultctl.answer("fault-list", hmp_str(LIST)),
                         "OK count=1 fired=16 fired_total=16 tx_stalled=false f0.class=rx-withhold "
                         "f0.state=done f0.seen=215 f0.fired=16")
        empty = {"faults": [], "tx_stalled": True, "fired_total": 0}
        self.assertEqual(faultctl.answer("fault-list", hmp_str(empty)),
                         "OK count=0 fired=0 fired_total=0 tx_stalled=true")

    def test_stats_flattened(self):
        self.assertEqual(faultctl.answer("stats", hmp_str({"tx_frames": 3, "sys_errors": 1})),
                         "OK tx_frames=3 sys_errors=1")

    def test_garbage_is_an_error(self):
        self.assertEqual(faultctl.answer("fault-list", "Error: Property not found\n"),
                         "ERR Error: Property not found")
        self.assertTrue(faultctl.answer("stats", "").startswith("ERR"))


class Serve(unittest.TestCase):
    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="faultctl-test."))
        self.addCleanup(shutil.rmtree, self.tmp, True)

    def test_each_request_answered_once_in_order(self):
        path = self.tmp / "ctl.sock"
        srv = socket.socket(socket.AF_UNIX)
        srv.bind(str(path))
        srv.listen(1)
        self.addCleanup(srv.close)
        sent, logged = [], []

        def hmp(cmd):
            sent.append(cmd)
            return {"qom-get nic0 fault-list": hmp_str(LIST),
                    "qom-set nic0 fault-add dma-read:nth=0": "Error: rtl8168: nth=0\n"}.get(cmd, "")

        port = faultctl.Port(path)
        self.addCleanup(port.close)
        c = faultctl.Controller("faults", port, hmp, logged.append)
        steps = ["STEP scenario=faults ctl 1 fault-add dma-read:nth=0"]
        c.serve(steps)
        conn, _ = srv.accept()
        self.addCleanup(conn.close)
        steps += ["STEP scenario=faults ctl 2 fault-list", "STEP scenario=faults ctl 3 bogus"]
        c.serve(steps)
        c.serve(steps)   # nothing new: nothing sent again
        port.close()
        got = b""
        while True:
            d = conn.recv(4096)
            if not d:
                break
            got += d
        self.assertEqual(got.decode().splitlines(),
                         ["CTL 1 ERR Error: rtl8168: nth=0",
                          "CTL 2 OK count=1 fired=16 fired_total=16 tx_stalled=false "
                          "f0.class=rx-withhold f0.state=done f0.seen=215 f0.fired=16",
                          "CTL 3 ERR unknown request 'bogus' (one of: fault-add, fault-clear, "
                          "fault-list, stats)"])
        self.assertEqual(sent, ["qom-set nic0 fault-add dma-read:nth=0", "qom-get nic0 fault-list"])
        self.assertEqual(c.count, 3)
        self.assertEqual(len(logged), 3)


if __name__ == "__main__":
    unittest.main()
