# SPDX-License-Identifier: GPL-2.0-or-later
"""The chip profiles as the model lists them (`rtl8168-bench chips --json`, C API rtl8168_chip_at).

Nothing outside the model keeps a copy of a chip's identity: the guest scenarios get the name,
XID, PHY ID and firmware r8169 should report from here (lablib.guest.append_line), and the tools'
--chip options check their argument against this list.
"""
from __future__ import annotations

import functools
import json
import os
import subprocess
import sys

from . import qemu
from .result import HarnessError

REPO = qemu.REPO


def bench_path(env=os.environ) -> str:
    return env.get("RTL8168_BENCH") or str(REPO / "build" / "bin" / "rtl8168-bench")


@functools.lru_cache(maxsize=None)
def _listed(bench: str) -> tuple:
    try:
        out = subprocess.run([bench, "chips", "--json"], check=True, capture_output=True,
                             text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError) as e:
        raise LookupError(f"cannot list the chip profiles with {bench} chips --json ({e}); "
                          "build the model first (cmake --build build)") from e
    return tuple(json.loads(out))


@functools.lru_cache(maxsize=None)
def _default(bench: str) -> str:
    try:
        out = subprocess.run([bench, "params", "--json"], check=True, capture_output=True,
                             text=True, timeout=60).stdout
        return json.loads(out)["chip"]["value"]
    except (OSError, subprocess.SubprocessError, ValueError, KeyError) as e:
        raise LookupError(f"cannot read the default chip with {bench} params --json ({e}); "
                          "build the model first (cmake --build build)") from e


def all_chips(env=os.environ) -> list[dict]:
    """Every profile, in the model's order."""
    return list(_listed(bench_path(env)))


def ids(env=os.environ) -> list[str]:
    return [c["id"] for c in all_chips(env)]


def chip(chip_id: str, env=os.environ) -> dict:
    """One profile by its `chip` parameter value; LookupError naming the known ones."""
    for c in all_chips(env):
        if c["id"] == chip_id:
            return c
    raise LookupError(f"unknown chip '{chip_id}' (known: {', '.join(ids(env))})")


def default_id(env=os.environ) -> str:
    """The chip a device gets without a `chip` property (the model's parameter default)."""
    return _default(bench_path(env))


def of_props(props: str) -> str | None:
    """The chip among -device properties ('chip=8168h,timing=off', last wins), or None."""
    found = [kv.split("=", 1)[1] for kv in (props or "").lstrip(",").split(",")
             if kv.startswith("chip=")]
    return found[-1] if found else None


def check(chip_id: str, env=os.environ) -> str:
    """A tool's --chip NAME: HarnessError with one line listing the known chips when the model
    does not know NAME (or the model cannot be asked)."""
    try:
        chip(chip_id, env)
    except LookupError as e:
        raise HarnessError(str(e)) from None
    return chip_id


def check_option(chip_id: str | None, props: str = "", what: str = "--device-props",
                 env=os.environ) -> str | None:
    """--chip NAME (None: not given) of a tool that also takes -device properties: NAME must be
    a chip the model lists, and a chip= among `props` must name the same chip. Returns NAME."""
    if chip_id is None:
        return None
    check(chip_id, env)
    other = of_props(props)
    if other is not None and other != chip_id:
        raise HarnessError(f"--chip {chip_id} contradicts {what} chip={other} (give one, or "
                           f"the same chip in both)")
    return chip_id


def dir_suffix(chip_id: str | None, env=os.environ) -> str:
    """'-<chip>' for a log directory name when a chip other than the default was asked for,
    '' otherwise (the default chip's directories keep their names)."""
    if chip_id is None or chip_id == default_id(env):
        return ""
    return f"-{chip_id}"


def main(argv: list) -> int:
    """python3 -P -m lablib.chips suffix NAME (PYTHONPATH=scripts): the shell tools' --chip
    check: prints dir_suffix(NAME) ('' for the default chip); one line and exit 2 for a chip
    the model does not list."""
    if len(argv) != 2 or argv[0] != "suffix":
        print("usage: python3 -m lablib.chips suffix NAME", file=sys.stderr)
        return 2
    try:
        print(dir_suffix(check(argv[1])))
    except (HarnessError, LookupError) as e:
        print(str(e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
