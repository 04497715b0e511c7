# SPDX-License-Identifier: GPL-2.0-or-later
"""lablib.vfiouser and run-guest --nic vfio-user: command lines, paths, refusals (no QEMU run)."""
import json
import sys
import tempfile
import time
import unittest
from pathlib import Path
from unittest import mock

from lablib import guest, vfiouser
from lablib.result import HarnessError


class ServerCommand(unittest.TestCase):
    def test_chip_and_params(self):
        cmd = vfiouser.server_command("srv", Path("/s/x.sock"), "chip=8168h,timing=on",
                                      "52:54:00:81:68:01")
        self.assertEqual(cmd[:7], ["srv", "--socket", "/s/x.sock", "--netdev", "user",
                                   "--chip", "8168h"])
        self.assertEqual(cmd[7:], ["--param", "mac=52:54:00:81:68:01", "--param", "timing=on"])

    def test_escaped_comma_and_own_mac(self):
        cmd = vfiouser.server_command("srv", Path("s"), "chip=8168c,mac=02:00:00:00:00:09,"
                                      "faults=spurious-irq:bits=0x8001,,at=20s", "m",
                                      pcap=Path("/o/c.pcap"))
        self.assertNotIn("mac=m", cmd)
        self.assertIn("mac=02:00:00:00:00:09", cmd)
        self.assertIn("faults=spurious-irq:bits=0x8001,at=20s", cmd)
        self.assertEqual(cmd[-2:], ["--pcap", "/o/c.pcap"])


class QemuArgs(unittest.TestCase):
    def test_shared_ram_and_device(self):
        a = vfiouser.qemu_args(Path("/t/r.sock"), "256", "rp1")
        self.assertEqual(a[:4], ["-object", "memory-backend-memfd,id=ram,size=256M,share=on",
                                 "-machine", "memory-backend=ram"])
        dev = json.loads(a[5])
        self.assertEqual(dev, {"driver": "vfio-user-pci", "id": "nic0", "bus": "rp1",
                               "socket": {"type": "unix", "path": "/t/r.sock"}})
        self.assertNotIn("bus", json.loads(vfiouser.qemu_args(Path("s"), "64", None)[5]))


class Paths(unittest.TestCase):
    def test_distro_qemu(self):
        self.assertEqual(vfiouser.distro_qemu({"RTL8168_DISTRO_QEMU": "/q"}), "/q")
        self.assertEqual(vfiouser.distro_qemu({"RTL8168_CACHE": "/c"}),
                         "/c/distro-qemu/current/qemu-system-x86_64")

    def test_check_names_the_fetch_script(self):
        with self.assertRaisesRegex(HarnessError, "fetch-distro-qemu"):
            vfiouser.check("/nonexistent/qemu", "/bin/true")

    def test_guest_sees_rtl8168(self):
        self.assertEqual(guest.guest_nic("vfio-user"), "rtl8168")
        self.assertEqual(guest.guest_nic("e1000e"), "e1000e")


class ServerProcess(unittest.TestCase):
    """Server's start, link signals and stop against a stand-in that acts like the server:
    creates its socket, logs the signals it gets, exits 0 on SIGTERM."""

    STANDIN = r"""
import signal, sys, time, pathlib
sock = pathlib.Path(sys.argv[sys.argv.index("--socket") + 1])
def on(sig, _):
    if sig == signal.SIGTERM:
        sys.exit(0)
    print("link", "up" if sig == signal.SIGUSR2 else "down", flush=True)
for s in (signal.SIGUSR1, signal.SIGUSR2, signal.SIGTERM):
    signal.signal(s, on)
print("rtl8168-vfio-user: device reset", flush=True)
sock.touch()
while True:
    time.sleep(0.05)
"""

    def test_start_link_stop(self):
        with tempfile.TemporaryDirectory() as d:
            sock = Path(d) / "r.sock"
            s = vfiouser.Server([sys.executable, "-c", self.STANDIN, "--socket", sock],
                                Path(d) / "log")
            s.wait_listening(10)
            s.link(False)
            time.sleep(0.3)
            s.link(True)
            time.sleep(0.3)
            self.assertEqual(s.stop(grace=1), 0)
            self.assertIn("link down\nlink up", s.text())
            self.assertEqual(s.resets(), 1)

    def test_exit_before_listening(self):
        with tempfile.TemporaryDirectory() as d:
            s = vfiouser.Server([sys.executable, "-c", "import sys; print('bad'); sys.exit(2)",
                                 "--socket", Path(d) / "r.sock"], Path(d) / "log")
            with self.assertRaisesRegex(HarnessError, "exited 2 before listening: bad"):
                s.wait_listening(10)


class Refusals(unittest.TestCase):
    def test_boots_needs_vfio_user(self):
        s = guest.Spec(kernel="6.1", scenario="boot", boots=2)
        with mock.patch.object(guest.qemu, "image", return_value=(Path("/x"), {})), \
                mock.patch.object(guest.qemu, "kernel_name", return_value="6.1"):
            with self.assertRaisesRegex(HarnessError, "--boots"):
                guest.validate(s)


if __name__ == "__main__":
    unittest.main()
