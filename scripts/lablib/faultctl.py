# SPDX-License-Identifier: GPL-2.0-or-later
"""The control port of fault-injection scenarios (action=faults, guest-tests/scenarios/faults.sh).

The guest asks, the host acts on the running device and answers:

  guest console:  STEP scenario=S ctl <seq> fault-add <spec> | fault-clear | fault-list | stats
  host (HMP):     qom-set nic0 fault-add <spec>  |  qom-set nic0 fault-clear true
                  qom-get nic0 fault-list        |  qom-get nic0 x-stats
  guest ttyS1:    CTL <seq> OK <key=value ...>   or   CTL <seq> ERR <message>

The second serial port (-serial unix:<sock>,server=on,wait=off, the guest's /dev/ttyS1) carries
the answers so that the NIC under test is not its own control channel. Each request is
answered once, in order. The answers flatten the device's JSON into key=value words the guest's
busybox can pick apart: fault-list gives count=, fired= (the listed faults' firings),
fired_total= (the device's since reset), tx_stalled= and per fault
f<i>.class= f<i>.state= f<i>.seen= f<i>.fired=; stats gives every counter of x-stats."""
import json
import re
import socket
import time

CTL_RE = re.compile(r"^STEP scenario=(\S+) ctl (\d+) (\S+)(?: (\S+))?\s*$")
COMMANDS = ("fault-add", "fault-clear", "fault-list", "stats")


def requests(steps: list, scenario: str) -> list:
    """[(seq, command, arg)] of the guest's ctl STEP lines, in order."""
    out = []
    for line in steps:
        m = CTL_RE.match(line)
        if m and m.group(1) == scenario:
            out.append((int(m.group(2)), m.group(3), m.group(4) or ""))
    return out


def hmp_command(command: str, arg: str, dev: str = "nic0") -> str | None:
    """The HMP command line for one request (None for an unknown request)."""
    if command == "fault-add" and arg:
        return f"qom-set {dev} fault-add {arg}"
    if command == "fault-clear":
        return f"qom-set {dev} fault-clear true"
    if command == "fault-list":
        return f"qom-get {dev} fault-list"
    if command == "stats":
        return f"qom-get {dev} x-stats"
    return None


def _one_line(text):
    return " ".join(text.split()) or "(no text)"


def _json_of(reply):
    """HMP qom-get prints the property's value as JSON: here a string holding JSON."""
    v = json.loads(reply.strip())
    return json.loads(v) if isinstance(v, str) else v


def flatten(command: str, doc: dict) -> str:
    """key=value words of a fault-list or x-stats document."""
    if command == "stats":
        return " ".join(f"{k}={v}" for k, v in doc.items())
    faults = doc.get("faults") or []
    # fired: the listed faults' firings; fired_total: the device's since its last reset
    # (fault-clear does not reset it)
    fired = sum(int(f.get("fired") or 0) for f in faults)
    words = [f"count={len(faults)}", f"fired={fired}", f"fired_total={doc.get('fired_total', 0)}",
             f"tx_stalled={'true' if doc.get('tx_stalled') else 'false'}"]
    for i, f in enumerate(faults):
        for k in ("class", "state", "seen", "fired"):
            words.append(f"f{i}.{k}={f.get(k)}")
    return " ".join(words)


def answer(command: str, reply: str) -> str:
    """'OK ...' or 'ERR <message>' for the HMP reply of a request."""
    if command in ("fault-add", "fault-clear"):
        # qom-set prints nothing on success, the error (the model's message) otherwise
        return "OK" if not reply.strip() else "ERR " + _one_line(reply)
    try:
        return ("OK " + flatten(command, _json_of(reply))).rstrip()
    except (ValueError, TypeError, AttributeError):
        return "ERR " + _one_line(reply)


class Port:
    """The host end of the guest's /dev/ttyS1 (a unix socket QEMU listens on)."""

    def __init__(self, path):
        self.path = path
        self.sock = None

    def send(self, line: str, wait_s: float = 10.0) -> None:
        end = time.monotonic() + wait_s
        while self.sock is None:
            try:
                s = socket.socket(socket.AF_UNIX)
                s.connect(str(self.path))
                self.sock = s
            except OSError:
                s.close()
                if time.monotonic() > end:
                    raise
                time.sleep(0.1)
        self.sock.sendall(line.encode() + b"\n")

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None


class Controller:
    """Answers every new ctl request of the console with hmp(command) -> reply text."""

    def __init__(self, scenario, port, hmp, log):
        self.scenario, self.port, self.hmp, self.log = scenario, port, hmp, log
        self.done = 0      # the highest seq answered
        self.count = 0

    def serve(self, steps: list) -> None:
        for seq, command, arg in requests(steps, self.scenario):
            if seq <= self.done:
                continue
            cmd = hmp_command(command, arg)
            if cmd is None:
                ans = f"ERR unknown request '{command}' (one of: {', '.join(COMMANDS)})"
                reply = ""
            else:
                reply = self.hmp(cmd)
                ans = answer(command, reply)
            self.log(f"ctl {seq}: {cmd or command} -> {reply.strip()!r} -> {ans}")
            self.port.send(f"CTL {seq} {ans}")
            self.done = seq
            self.count += 1
