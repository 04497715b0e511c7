# SPDX-License-Identifier: GPL-2.0-or-later
"""The one result vocabulary of every guest run: scenario (run-guest), lab case (run-lab,
reproduce), driver smoke test, regress entry.

  PASS     the guest (and the host's checks) said so
  FAIL     the guest or a host check failed: the device or driver under test is to blame
  TIMEOUT  no end line within the wall-clock limit; a kind of its own, set by the launcher
           that owns the deadline, never inferred from the wording of a reason
  ERROR    the harness could not judge (QEMU did not start, bad arguments, missing pieces)

The reason is a separate one-line text. Exit status of the command-line tools: 0 PASS,
1 FAIL or TIMEOUT, 2 ERROR."""
import enum
from dataclasses import dataclass


class Kind(str, enum.Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    ERROR = "ERROR"
    TIMEOUT = "TIMEOUT"

    def __str__(self):
        return self.value

    @property
    def ok(self) -> bool:
        return self is Kind.PASS

    @property
    def exit_code(self) -> int:
        return {Kind.PASS: 0, Kind.FAIL: 1, Kind.TIMEOUT: 1, Kind.ERROR: 2}[self]

    @classmethod
    def parse(cls, word: str) -> "Kind":
        """'PASS' / 'pass' -> Kind.PASS; ValueError for anything else."""
        return cls(str(word).strip().upper())


@dataclass
class Outcome:
    kind: Kind
    reason: str = ""
    wall_s: float = 0.0

    @property
    def ok(self) -> bool:
        return self.kind.ok

    def __str__(self):
        return f"{self.kind} {self.reason}".rstrip()


class HarnessError(Exception):
    """Bad arguments or a missing piece: the run cannot start (Kind.ERROR, exit 2).
    str(e) is the one-line reason."""
