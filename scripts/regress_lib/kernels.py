# SPDX-License-Identifier: GPL-2.0-or-later
"""The guest kernels: the image scripts/build-guest made (build/guest/<K>/info) and the headers
scripts/build-driver unpacks (its --print-headers mode: the same kernel resolution and the same
header cache, so a module built here has the image's vermagic)."""
import os
import subprocess
from functools import lru_cache
from pathlib import Path

from lablib import cpio, firmware, qemu
from lablib.result import HarnessError

from .errors import BadInput

REPO = Path(__file__).resolve().parent.parent.parent
KERNELS = qemu.KERNELS
HELP = qemu.KERNEL_HELP


def name(spec: str) -> str:
    """The image name of a --kernel value (latest -> its series; a kernel tree PATH -> tree-<hash>,
    its image built first); BadInput for a bad one."""
    try:
        return qemu.kernel_name(spec)
    except HarnessError as e:
        raise BadInput(str(e))


def cache_root() -> Path:
    return firmware.cache_root()


def image_dir(kernel: str) -> Path:
    return REPO / "build" / "guest" / kernel


@lru_cache(maxsize=None)
def image_info(kernel: str) -> dict:
    d = image_dir(kernel)
    info = d / "info"
    if not (d / "vmlinux").exists() or not (d / "initramfs.cpio").exists() or not info.is_file():
        raise BadInput(f"no guest image for {kernel} in build/guest/{kernel}: "
                       f"run scripts/build-guest --kernel {kernel}")
    kv = dict(l.split("=", 1) for l in info.read_text().split() if "=" in l)
    if not kv.get("release"):
        raise BadInput(f"build/guest/{kernel}/info has no release=: "
                       f"run scripts/build-guest --kernel {kernel} --force")
    return kv


@lru_cache(maxsize=None)
def headers(kernel: str) -> dict:
    """{release, version, package, kdir, cc} for the kernel (downloads/unpacks on first use)."""
    p = subprocess.run([str(REPO / "scripts" / "build-driver"), "--kernel", kernel,
                        "--print-headers"], capture_output=True, text=True)
    if p.returncode != 0:
        msg = (p.stderr.strip().splitlines() or ["failed"])[-1]
        raise BadInput(f"kernel headers for {kernel}: {msg}")
    kv = dict(l.split("=", 1) for l in p.stdout.splitlines() if "=" in l)
    rel = image_info(kernel)["release"]
    if kv.get("release") != rel:
        raise BadInput(f"build/guest/{kernel} is kernel {rel} but the headers resolve to "
                       f"{kv.get('release')}: run scripts/build-guest --kernel {kernel}")
    return kv


@lru_cache(maxsize=None)
def module_path(kernel: str, modname: str) -> str:
    """Where the guest image keeps <modname>.ko (modprobe loads it from there)."""
    rel = image_info(kernel)["release"]
    want = f"/{modname}.ko"
    hits = [n for n in cpio.names(image_dir(kernel) / "initramfs.cpio")
            if n.startswith(f"lib/modules/{rel}/") and n.endswith(want)]
    if not hits:
        raise BadInput(f"the {kernel} guest image has no {modname}.ko under lib/modules/{rel}/")
    return hits[0]
