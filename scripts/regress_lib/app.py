# SPDX-License-Identifier: GPL-2.0-or-later
"""What scripts/regress and scripts/bisect share: argument checks, the pre-flight check of the
pieces a run needs, and running a list of entries with one module."""
import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import NoReturn

from . import driver, kernels, matrix, report, runner
from .errors import BadInput

REPO = kernels.REPO


class Parser(argparse.ArgumentParser):
    """argparse with a one-line error and exit status 2."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog.split('/')[-1]}: error: {message} (see --help)", file=sys.stderr)
        sys.exit(2)


def say(prog: str, msg: str) -> None:
    print(f"{prog}: {msg}", file=sys.stderr, flush=True)


def peek_module_name(spec: str) -> str:
    """r8169 or rtl8168sim, cheaply (no build), so --scenarios can be checked first."""
    if spec == "stock":
        return "r8169"
    p = Path(spec)
    if not p.exists():
        raise BadInput(f"--driver {spec}: no such file or directory (stock, a source "
                       f"directory, a .patch/.diff or a .ko)")
    if p.is_file() and not p.name.endswith((".ko", ".patch", ".diff")):
        raise BadInput(f"--driver {spec}: a file must be a .patch/.diff or a .ko")
    if p.is_dir():
        return driver.find_sources(p)[1]
    if p.suffix == ".ko" and p.is_file():
        name = subprocess.run(["modinfo", "-F", "name", str(p)], capture_output=True,
                              text=True).stdout.strip()
        return name or "r8169"
    return "r8169"


def qemu_path() -> Path:
    return Path(os.environ.get("RTL8168_QEMU") or REPO / "build/qemu/qemu-system-x86_64")


def peer_path() -> Path:
    return Path(os.environ.get("RTL8168_PEER") or REPO / "build/bin/rtl8168-peer")


def preflight(kernel: str, names: list, module_name: str) -> None:
    q = qemu_path()
    if not os.access(q, os.X_OK):
        raise BadInput(f"no QEMU at {q}: run scripts/build-qemu")
    kernels.image_info(kernel)
    if any(matrix.kind(n) == "guest" for n in names) and not os.access(peer_path(), os.X_OK):
        raise BadInput(f"no host peer at {peer_path()}: cmake -S . -B build && cmake --build build")
    if module_name == "rtl8168sim" and not (REPO / f"build/driver/{kernel}/rtl8168sim.ko").is_file():
        # run-lab insists on it; the module under test then replaces it in the guest
        raise BadInput(f"missing build/driver/{kernel}/rtl8168sim.ko: "
                       f"run scripts/build-driver --kernel {kernel}")
    for tool in ("make", "modinfo", "git", "xz", "dpkg-deb"):
        if not shutil.which(tool):
            raise BadInput(f"'{tool}' not found: run scripts/setup")


def writable_parent(path: str | Path | None, what: str) -> Path | None:
    if path is None:
        return None
    p = Path(path)
    if not p.parent.is_dir():
        raise BadInput(f"{what} {path}: directory {p.parent} does not exist")
    if p.is_dir():
        raise BadInput(f"{what} {path} is a directory")
    return p


def run_entries(prog: str, names: list, kernel: str, module: driver.Module, out: Path,
                baselines: dict, quiet: bool = False, iommu: bool = False,
                chip: str | None = None) -> list:
    """Run the entries one after the other (one guest at a time), printing each verdict line."""
    ov = driver.overlay(module, kernel)
    results = []
    for name in names:
        d = Path(out) / name
        shutil.rmtree(d, ignore_errors=True)
        say(prog, f"{name} ({matrix.kind(name)}) on {kernel} with {module.label} ...")
        t0 = time.monotonic()
        rs = runner.run_entry(name, kernel, module, ov, d, baselines, peer_path(),
                              log=(lambda m: None) if quiet else (lambda m: say(prog, m)),
                              iommu=iommu, chip=chip)
        for r in rs:
            results.append(r)
            print(report.verdict_line(r), flush=True)
        say(prog, f"{name}: {', '.join(r['status'] for r in rs)} in "
                  f"{time.monotonic() - t0:.0f} s")
    return results


def meta(kernel: str, module: driver.Module, names: list, shard_text: str | None,
         started: float) -> dict:
    return {"tool": "scripts/regress", "kernel": kernel,
            "release": kernels.image_info(kernel)["release"], "driver": module.label,
            "driver_desc": module.desc, "module": module.to_dict(), "shard": shard_text or "1/1",
            "scenarios": ",".join(names), "started": started,
            "wall_s": round(time.time() - started, 1)}
