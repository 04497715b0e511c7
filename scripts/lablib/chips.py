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

from . import qemu

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
