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
from dataclasses import dataclass, field

from .result import Kind, Outcome

KV_RE = re.compile(r"(\w[\w.-]*)=(\S*)")

END_RE = re.compile(r"^VERDICT (PASS|FAIL) (\S+) ?(.*)$")
WORDS = {"PASS": Kind.PASS, "FAIL": Kind.FAIL}


def parse_kv(line):
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

    def has_step(self, scenario, name):
        pat = re.compile(rf"^STEP scenario={re.escape(scenario)} {re.escape(name)}\b")
        return any(pat.match(s) for s in self.steps)


def lines(text):
    return [l.rstrip("\r") for l in text.replace("\r\n", "\n").split("\n")]


def end_of(line):
    """The Outcome and name of one end line ((None, "") if it is not one)."""
    m = END_RE.match(line)
    if not m:
        return None, ""
    return Outcome(WORDS[m.group(1)], m.group(3).strip()), m.group(2)


def parse(text):
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


def end_line(kind, name, reason):
    """The end line in a host's report (run-lab): the guest's form with the run's kind, which
    is TIMEOUT or ERROR when the launcher decided (no guest end line then)."""
    return f"VERDICT {kind} {name} {reason or 'ok'}"


# ---- the host side: the line run-guest prints last -------------------------------------------

HOST_VERDICT_RE = re.compile(
    r"^VERDICT (PASS|FAIL|ERROR|TIMEOUT) (\S+) (\S+) (\S+) ?(.*?)(?: \(wall ([0-9.]+)s\))?$")


def verdict_line(kind, scenario, kernel, nic, reason, wall_s):
    """run-guest's last line: VERDICT <KIND> <scenario> <kernel> <nic> <reason> (wall Ns)."""
    return f"VERDICT {kind} {scenario} {kernel} {nic} {reason} (wall {wall_s:.1f}s)"


def parse_verdict_line(text):
    """The Outcome of run-guest's output (its VERDICT line), or None without one."""
    for line in lines(text):
        m = HOST_VERDICT_RE.match(line)
        if m:
            wall = float(m.group(6)) if m.group(6) else 0.0
            return Outcome(Kind(m.group(1)), m.group(5), wall)
    return None
