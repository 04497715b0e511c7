# SPDX-License-Identifier: GPL-2.0-or-later
"""run-guest --nic vfio-user: the RTL8168 model in its own process (rtl8168-vfio-user,
docs/VFIO-USER.md) behind an unmodified distribution QEMU's -device vfio-user-pci.

  distro_qemu(env)          the launcher of scripts/fetch-distro-qemu (or $RTL8168_DISTRO_QEMU)
  server_binary(explicit)   --vfio-server, $RTL8168_VFIO_SERVER, or build/bin/rtl8168-vfio-user
  check(qemu, server)       HarnessError when either is missing or QEMU has no vfio-user-pci
  qemu_args(sock, mem, bus) guest RAM as a shared memfd, the vfio-user-pci device
  server_command(...)       the server's command line for a chip and -device style properties
  Server                    one server process: start (waits for its socket), link, stop
"""
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Mapping

from . import chips, qemu
from .result import HarnessError

REPO = qemu.REPO
DEFAULT_SERVER = REPO / "build" / "bin" / "rtl8168-vfio-user"
RESET_LINE = "rtl8168-vfio-user: device reset"


def cache_dir(env: Mapping[str, str] = os.environ) -> Path:
    base = env.get("RTL8168_CACHE") or os.path.join(
        env.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "rtl8168-sim")
    return Path(base) / "distro-qemu"


def distro_qemu(env: Mapping[str, str] = os.environ) -> str:
    """The distribution QEMU the vfio-user runs use unless --qemu names one."""
    return env.get("RTL8168_DISTRO_QEMU") or str(cache_dir(env) / "current" /
                                                 "qemu-system-x86_64")


def server_binary(explicit: str | None = None, env: Mapping[str, str] = os.environ) -> str:
    return explicit or env.get("RTL8168_VFIO_SERVER") or str(DEFAULT_SERVER)


def check(qemu_bin: str, server: str) -> None:
    if not os.access(qemu_bin, os.X_OK):
        raise HarnessError(f"no distribution QEMU at {qemu_bin}: run scripts/fetch-distro-qemu "
                           f"(or pass --qemu PATH, a QEMU >= 10.1 with vfio-user-pci)")
    p = subprocess.run([qemu_bin, "-device", "help"], capture_output=True, text=True)
    if '"vfio-user-pci"' not in p.stdout + p.stderr:
        raise HarnessError(f"{qemu_bin} has no -device vfio-user-pci (QEMU 10.1 or later with "
                           f"CONFIG_VFIO_USER)")
    if not os.access(server, os.X_OK):
        raise HarnessError(f"rtl8168-vfio-user not found at {server}: build it (cmake --build "
                           f"build), or pass --vfio-server PATH")


def qemu_args(sock: Path, mem_mib: str, bus: str | None) -> list:
    """The guest RAM as a shared memfd (QEMU passes its fd with each DMA_MAP, so the server's
    DMA is memory access, docs/VFIO-USER.md) and the NIC as vfio-user-pci (id nic0)."""
    dev = ('{"driver":"vfio-user-pci","id":"nic0","socket":{"type":"unix","path":"%s"}%s}'
           % (sock, f',"bus":"{bus}"' if bus else ""))
    return ["-object", f"memory-backend-memfd,id=ram,size={mem_mib}M,share=on",
            "-machine", "memory-backend=ram", "-device", dev]


def server_command(server: str, sock: Path, device_props: str, mac: str,
                   pcap: Path | None = None) -> list:
    """rtl8168-vfio-user for the -device rtl8168 style properties: chip= becomes --chip, every
    other key=value a --param (the server takes the QEMU device's parameters by name)."""
    cmd = [server, "--socket", str(sock), "--netdev", "user",
           "--chip", chips.of_props(device_props) or chips.default_id()]
    kvs = [kv.replace("\0", ",") for kv in (device_props or "").replace(",,", "\0").split(",")
           if kv]
    if not any(kv.startswith("mac=") for kv in kvs):
        cmd += ["--param", f"mac={mac}"]
    for kv in kvs:
        if not kv.startswith("chip="):
            cmd += ["--param", kv]
    if pcap is not None:
        cmd += ["--pcap", str(pcap)]
    return cmd


class Server:
    """One rtl8168-vfio-user process of a run, its output in LOG."""

    def __init__(self, cmd: list, log: Path):
        self.cmd = [str(c) for c in cmd]
        self.log_path = log
        self.sock = Path(self.cmd[self.cmd.index("--socket") + 1])
        with open(log, "w") as f:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL, stdout=f,
                                         stderr=subprocess.STDOUT, start_new_session=True)

    def wait_listening(self, seconds: float = 20) -> None:
        """Until the socket exists; HarnessError when the server exits or never listens."""
        t_end = time.monotonic() + seconds
        while not self.sock.exists():
            if self.proc.poll() is not None:
                raise HarnessError(f"rtl8168-vfio-user exited {self.proc.returncode} before "
                                   f"listening: {self.tail()}")
            if time.monotonic() > t_end:
                raise HarnessError(f"rtl8168-vfio-user did not listen on {self.sock} within "
                                   f"{seconds:.0f}s")
            time.sleep(0.05)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def link(self, up: bool) -> None:
        """The cable: SIGUSR2 up, SIGUSR1 down (the server's link control)."""
        if self.alive():
            self.proc.send_signal(signal.SIGUSR2 if up else signal.SIGUSR1)

    def stop(self, grace: float = 5) -> int:
        """The exit status once the client has gone: the server exits by itself then (without
        --persist); SIGTERM after GRACE seconds, SIGKILL after as many more."""
        for sig in (None, signal.SIGTERM, signal.SIGKILL):
            if sig is not None and self.proc.poll() is None:
                self.proc.send_signal(sig)
            try:
                self.proc.wait(grace)
                break
            except subprocess.TimeoutExpired:
                continue
        rc = self.proc.returncode
        return 128 - rc if rc is not None and rc < 0 else rc

    def text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def tail(self, n: int = 3) -> str:
        return " ".join(self.text().splitlines()[-n:])

    def resets(self) -> int:
        return sum(1 for l in self.text().splitlines() if l.startswith(RESET_LINE))
