# SPDX-License-Identifier: GPL-2.0-or-later
"""Kernel modules a lab case needs beyond the guest image's (guest-tests/initramfs/modules.list):
a case names them on a header line "# lab-modules: 8021q", and scripts/run-lab puts them, with
their dependencies in load order, into that case's overlay only, taken from the kernel package
scripts/build-guest unpacked into the cache (<cache>/guest/<package>/root, beside the vmlinux
that build/guest/<K>/vmlinux links to). The image stays as it is: every other case boots the
same bytes as before, so its timing, figures and trace hashes do not move. The case loads them
with insmod in the order of /lab/modules (one path per line)."""
import lzma
import os
import re
import shutil
import subprocess
from pathlib import Path

from .result import HarnessError

MODULE_RE = re.compile(r"^[A-Za-z0-9_-]+$")


def case_modules(lines: list) -> list:
    """The modules of a case's "# lab-modules: a b" header line (first 40 lines), in order."""
    for line in lines:
        m = re.match(r"^#\s*lab-modules:\s*(.*)$", line)
        if m:
            names = m.group(1).split()
            for n in names:
                if not MODULE_RE.match(n):
                    raise HarnessError(f"lab-modules: '{n}' is not a module name")
            return names
    return []


def _kernel_root(img: Path) -> Path:
    return Path(os.path.realpath(img / "vmlinux")).parent / "root"


def _read_ko(path: Path) -> bytes:
    if path.suffix == ".xz":
        return lzma.decompress(path.read_bytes())
    if path.suffix == ".zst":
        if not shutil.which("zstd"):
            raise HarnessError(f"{path.name}: zstd is needed (scripts/setup guest)")
        return subprocess.run(["zstd", "-dcq", str(path)], check=True, capture_output=True).stdout
    return path.read_bytes()


def files(img: Path, krel: str, names: list) -> list:
    """[(path in the initramfs, bytes)] of the modules `names` and what they depend on, in
    load order (modprobe --show-depends against the unpacked kernel package). HarnessError,
    one line, when the kernel has no such module (a kernel built without the option)."""
    if not names:
        return []
    root = _kernel_root(img)
    mbase = root if (root / "lib" / "modules" / krel).is_dir() else root / "usr"
    mdir = mbase / "lib" / "modules" / krel
    if not mdir.is_dir():
        raise HarnessError(f"lab-modules: no unpacked modules of {krel} at {mdir} "
                           f"(scripts/build-guest unpacks them)")
    if not shutil.which("modprobe"):
        raise HarnessError("lab-modules: modprobe is needed (kmod; scripts/setup guest)")
    out, seen = [], set()
    for name in names:
        r = subprocess.run(["modprobe", "-d", str(mbase), "-S", krel, "--show-depends", name],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise HarnessError(f"lab-modules: the guest kernel {krel} has no module {name} "
                               f"(built without it, or built in: {r.stderr.strip()})")
        for line in r.stdout.splitlines():
            parts = line.split()
            if len(parts) < 2 or parts[0] != "insmod" or parts[1] in seen:
                continue
            seen.add(parts[1])
            path = Path(parts[1])
            rel = path.relative_to(mdir).as_posix()
            rel = re.sub(r"\.(xz|zst)$", "", rel)
            out.append((f"lib/modules/{krel}/{rel}", _read_ko(path)))
    return out
