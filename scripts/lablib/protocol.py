# SPDX-License-Identifier: GPL-2.0-or-later
"""The guest side of the serial console: one line per message, every tool the same parser.

  GUEST key=value...            progress the host only prints (run-guest)
  STEP scenario=S <name>        progress the host acts on (run-guest: link-flap, migrate)
  RESULT key=value...           the guest's figures
and exactly one end line, the same in every guest:

  VERDICT PASS|FAIL <name> <reason>

  guest                                   name            code
  scenario (scripts/run-guest)            the scenario    guest-tests/initramfs, scenarios/
  lab case (scripts/run-lab, reproduce)   the case        guest-tests/lab/init, common.sh
  driver smoke test                       smoke           guest-tests/driver/smoke-init

parse(text) -> Console(results, steps, guest, end, end_line, name); end is a result.Outcome
(PASS or FAIL) or None when the console has no end line yet. The first end line counts. A
guest never says TIMEOUT or ERROR: only the launcher that owns the deadline or the harness
does."""
import re
import sys
from dataclasses import dataclass, field
from typing import Optional

from .result import Kind, Outcome

KV_RE = re.compile(r"(\w[\w.-]*)=(\S*)")

END_RE = re.compile(r"^VERDICT (PASS|FAIL) (\S+) ?(.*)$")
WORDS = {"PASS": Kind.PASS, "FAIL": Kind.FAIL}


def parse_kv(line: str) -> dict:
    """'RESULT a=1 b=x' (or the part after RESULT) -> {'a': '1', 'b': 'x'}."""
    return {m.group(1): m.group(2) for m in KV_RE.finditer(line)}


@dataclass
class Console:
    results: list = field(default_factory=list)   # the RESULT lines, in order
    steps: list = field(default_factory=list)     # the STEP lines
    guest: list = field(default_factory=list)     # the GUEST lines
    end: Outcome = None                           # PASS/FAIL from the end line, or None
    end_line: str = ""
    name: str = ""                                # the scenario / case named on it

    def has_step(self, scenario: str, name: str) -> bool:
        pat = re.compile(rf"^STEP scenario={re.escape(scenario)} {re.escape(name)}\b")
        return any(pat.match(s) for s in self.steps)


def lines(text: str) -> list:
    return [l.rstrip("\r") for l in text.replace("\r\n", "\n").split("\n")]


def complete_steps(text: str) -> list:
    """The STEP lines of a console that is still being written, without its last line unless
    that line has ended (a newline after it)."""
    return parse(text[: text.rfind("\n") + 1]).steps


def _starting(ls: list, prefix: str) -> list:
    return [l for l in ls if l.startswith(prefix)]


def end_of(line: str) -> tuple:
    """The Outcome and name of one end line ((None, "") if it is not one)."""
    m = END_RE.match(line)
    if not m:
        return None, ""
    return Outcome(WORDS[m.group(1)], m.group(3).strip()), m.group(2)


def parse(text: str) -> Console:
    c = Console()
    for line in lines(text):
        if line.startswith("RESULT "):
            c.results.append(line)
        elif line.startswith("STEP "):
            c.steps.append(line)
        elif line.startswith("GUEST "):
            c.guest.append(line)
        if c.end is None:
            o, name = end_of(line)
            if o is not None:
                c.end, c.end_line, c.name = o, line, name
    return c


def end_line(kind: Kind | str, name: str, reason: str) -> str:
    """The end line in a host's report (run-lab): the guest's form with the run's kind, which
    is TIMEOUT or ERROR when the launcher decided (no guest end line then)."""
    return f"VERDICT {kind} {name} {reason or 'ok'}"


# ---- the host side: the line run-guest prints last -------------------------------------------

HOST_VERDICT_RE = re.compile(
    r"^VERDICT (PASS|FAIL|ERROR|TIMEOUT) (\S+) (\S+) (\S+) ?(.*?)(?: \(wall ([0-9.]+)s\))?$")


def verdict_line(kind: Kind | str, scenario: str, kernel: str, nic: str, reason: str,
                 wall_s: float) -> str:
    """run-guest's last line: VERDICT <KIND> <scenario> <kernel> <nic> <reason> (wall Ns)."""
    return f"VERDICT {kind} {scenario} {kernel} {nic} {reason} (wall {wall_s:.1f}s)"


def _host_verdict(m: "re.Match") -> Outcome:
    return Outcome(Kind(m.group(1)), m.group(5), float(m.group(6)) if m.group(6) else 0.0)


def parse_verdict_line(text: str) -> Optional[Outcome]:
    """The Outcome of run-guest's output (its VERDICT line), or None without one."""
    for line in lines(text):
        m = HOST_VERDICT_RE.match(line)
        if m:
            return _host_verdict(m)
    return None


@dataclass
class GuestReport:
    """run-guest's output (stdout): what the tools that read it back need (compare-nics)."""
    results: list = field(default_factory=list)   # the guest's RESULT lines, in order
    guest: list = field(default_factory=list)     # the guest's GUEST lines
    peers: dict = field(default_factory=dict)     # "PEER <role> <json>": role -> the JSON text
    verdict: Optional[Outcome] = None             # the last line's Outcome (wall_s from it)
    verdict_line: str = ""
    has_wall: bool = False                        # the VERDICT line carried "(wall Ns)"


def parse_report(text: str) -> GuestReport:
    """run-guest's output: its RESULT/GUEST lines (the guest's, copied from the console),
    PEER lines (the host peers' JSON) and its one VERDICT line (the host's, verdict_line())."""
    ls = lines(text)
    r = GuestReport(results=_starting(ls, "RESULT "), guest=_starting(ls, "GUEST "))
    for parts in (line.split(" ", 2) for line in _starting(ls, "PEER ")):
        if len(parts) == 3:
            r.peers[parts[1]] = parts[2]
    for m in filter(None, map(HOST_VERDICT_RE.match, ls)):   # the last one counts
        r.verdict, r.verdict_line, r.has_wall = _host_verdict(m), m.group(0), bool(m.group(6))
    return r


# ---- run-lab's report (scripts/run-lab's stdout, run-lab.txt) --------------------------------
# HOST trace-hash dut=0x... partner=0x... events=N,M   (the models' hashes, read over QMP)
# HOST inputs=... / HOST iommu ... / HOST wall=...     (host facts that may differ run to run)
# RESULT ...                                           (the guest's, in order)
# VERDICT PASS|FAIL|TIMEOUT|ERROR <case> <reason>      (end_line())

@dataclass
class LabReport:
    trace_line: str = ""                           # "HOST trace-hash ..." ("" without one)
    results: list = field(default_factory=list)   # the RESULT lines
    end_line: str = ""                             # the VERDICT line

    def fingerprint(self) -> list:
        """What a replay must reproduce exactly (scripts/check-replay): the trace hashes and
        event counts of both NICs, the guest's RESULT lines and the end line."""
        return [x for x in (self.trace_line, *self.results, self.end_line) if x]


def parse_lab_report(text: str) -> LabReport:
    ls = lines(text)
    return LabReport(trace_line=next(iter(_starting(ls, "HOST trace-hash ")), ""),
                     results=_starting(ls, "RESULT "),
                     end_line=next(iter(_starting(ls, "VERDICT ")), ""))


def main(argv: list) -> int:
    """python3 -m lablib.protocol lab-fingerprint FILE: the fingerprint of a run-lab report,
    one line each (exit 3 when it has no trace hash); lab-summary FILE: its trace hash line
    and the number of RESULT lines (scripts/check-replay)."""
    if len(argv) != 2 or argv[0] not in ("lab-fingerprint", "lab-summary"):
        print("usage: python3 -m lablib.protocol lab-fingerprint|lab-summary FILE",
              file=sys.stderr)
        return 2
    try:
        with open(argv[1], errors="replace") as fh:
            rep = parse_lab_report(fh.read())
    except OSError as e:
        print(f"protocol: error: {e}", file=sys.stderr)
        return 2
    if argv[0] == "lab-summary":
        print(f"{rep.trace_line} ({len(rep.results)} RESULT lines)")
        return 0
    for line in rep.fingerprint():
        print(line)
    return 0 if rep.trace_line else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
