# SPDX-License-Identifier: GPL-2.0-or-later
"""Starting QEMU and talking to it: one process wrapper with a wall-clock deadline and the
serial console in a file (-serial file:PATH: every launcher reads the guest that way), plus
the two monitor protocols the launchers need (HMP over a unix socket, QMP over stdio)."""
import json
import os
import queue
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path


class Deadline:
    def __init__(self, seconds, clock=time.monotonic):
        self.clock = clock
        self.t0 = clock()
        self.seconds = seconds

    def elapsed(self) -> float:
        return self.clock() - self.t0

    def expired(self) -> bool:
        return self.seconds is not None and self.elapsed() >= self.seconds


class Console:
    """The guest's serial console file(s), read incrementally; several files (QEMU instances
    of one run, e.g. before and after a migration) read as one stream."""

    def __init__(self, *paths):
        self.paths = [Path(p) for p in paths]
        self.shown = 0

    def add(self, path: str | Path) -> None:
        self.paths.append(Path(path))

    def text(self) -> str:
        out = []
        for p in self.paths:
            try:
                out.append(p.read_text(errors="replace"))
            except OSError:
                pass
        return "".join(out).replace("\r", "")

    def new_text(self) -> str:
        """What appeared since the last call (for --verbose echoing)."""
        t = self.text()
        new, self.shown = t[self.shown:], max(self.shown, len(t))
        return new


class Qemu:
    """One QEMU process. stdin/stdout are pipes when qmp_stdio (QMP on -chardev stdio),
    otherwise stdout goes to the log with stderr."""

    def __init__(self, cmd, log_path, qmp_stdio=False, nice=0):
        self.cmd = [str(c) for c in cmd]
        self.log = open(log_path, "w")
        kw = {}
        if nice:
            kw["preexec_fn"] = lambda: os.nice(nice)
        if qmp_stdio:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self.log, text=True, bufsize=1,
                                         start_new_session=True, **kw)
        else:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL, stdout=self.log,
                                         stderr=subprocess.STDOUT, start_new_session=True, **kw)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def wait(self, timeout: float | None = None) -> int | None:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, grace: float = 5.0) -> int | None:
        """Wait up to grace seconds for QEMU to exit, then SIGTERM, then SIGKILL."""
        if self.wait(grace) is None:
            self.proc.send_signal(signal.SIGTERM)
            if self.wait(5) is None:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        return self.proc.returncode

    def close(self) -> None:
        if self.alive():
            self.proc.kill()
            self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None:
                try:
                    f.close()
                except OSError:
                    pass
        if not self.log.closed:
            self.log.close()


def hmp(sock_path: str | Path, command: str, timeout: float = 30) -> str:
    """One HMP command over a monitor socket (-monitor unix:PATH,server=on,wait=off): the
    reply without the echoed command line."""
    s = socket.socket(socket.AF_UNIX)
    s.settimeout(timeout)
    s.connect(str(sock_path))
    buf = b""

    def until_prompt():
        nonlocal buf
        while b"(qemu) " not in buf:
            d = s.recv(4096)
            if not d:
                break
            buf += d
        out, _, buf = buf.partition(b"(qemu) ")
        return out

    try:
        until_prompt()
        s.sendall(command.encode() + b"\n")
        out = until_prompt().decode(errors="replace")
    finally:
        s.close()
    return "\n".join(l for l in out.replace("\r", "").split("\n")
                     if l.strip() and command not in l)


class Qmp:
    """QMP over a Qemu's stdio (-chardev stdio,id=qmp0,signal=off -mon chardev=qmp0,mode=control)."""

    def __init__(self, qemu):
        self.proc = qemu.proc
        self.q = queue.Queue()
        self.events = []
        self.raw = []
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        for line in self.proc.stdout:
            self.raw.append(line)
            line = line.strip()
            if not line:
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            self.q.put(msg)
        self.q.put(None)

    def next(self, timeout: float) -> dict | None | bool:
        """The next message; None when QEMU closed stdout, False on timeout."""
        try:
            return self.q.get(timeout=timeout)
        except queue.Empty:
            return False

    def command(self, name: str, timeout: float = 20, **arguments: object) -> dict | None:
        cmd = {"execute": name}
        if arguments:
            cmd["arguments"] = arguments
        try:
            self.proc.stdin.write(json.dumps(cmd) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return None
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            msg = self.next(max(0.05, end - time.monotonic()))
            if msg is None:
                return None
            if msg is False:
                continue
            if "event" in msg:
                self.events.append(msg)
                continue
            if "return" in msg or "error" in msg:
                return msg
        return None
