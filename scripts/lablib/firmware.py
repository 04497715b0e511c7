# SPDX-License-Identifier: GPL-2.0-or-later
"""The chip's firmware file for a guest (run-guest --firmware): r8169 requests the file its
rtl_chip_infos row names (rtl_nic/rtl8168h-2.fw for the 8168h) at open and, when it loads,
writes its MAC MCU patch and PHY patch to the chip (r8169_firmware.c rtl_fw_write_firmware,
then the PHY soft reset it polls). Boards without the file in the root file system run without
it, which is what a guest image without this archive shows.

The file comes from Debian's firmware-realtek package (component non-free-firmware, which
scripts/setup adds to the apt sources): `apt-get download` of the candidate version into the
cache, unpacked there (never installed on the host), and the one file packed into a newc archive
that run-guest appends to the image's initramfs, at lib/firmware/<name> (the firmware loader's
direct path). Cached per package version: <cache>/firmware/firmware-realtek_<version>/.

  python3 scripts/lablib/firmware.py rtl_nic/rtl8168h-2.fw     -> prints the archive's path"""
import os
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

try:
    from . import cpio
    from .result import HarnessError
except ImportError:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from lablib import cpio                    # noqa: E402
    from lablib.result import HarnessError     # noqa: E402

PACKAGE = "firmware-realtek"
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*$")


def cache_root(env=os.environ) -> Path:
    """The project's cache ($RTL8168_CACHE, else $XDG_CACHE_HOME or ~/.cache + /rtl8168-sim):
    the one definition, scripts/regress's too (regress_lib.kernels)."""
    c = env.get("RTL8168_CACHE")
    if c:
        return Path(c)
    xdg = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(xdg) / "rtl8168-sim"


def candidate(package: str = PACKAGE) -> str:
    """The version apt would install (apt-cache policy's Candidate), or HarnessError."""
    try:
        out = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True,
                             check=False).stdout
    except OSError as e:
        raise HarnessError(f"apt-cache not usable ({e}): the firmware comes from Debian's "
                           f"{package}")
    m = re.search(r"Candidate:\s*(\S+)", out)
    if not m or m.group(1) == "(none)":
        raise HarnessError(f"apt sees no {package}: run scripts/setup guest (it adds the "
                           f"non-free-firmware component) and apt-get update")
    return m.group(1)


def find_in(root: Path, name: str) -> Path | None:
    """lib/firmware/<name> of an unpacked package (merged-/usr packages: usr/lib/firmware),
    plain or compressed as the package ships it (.xz, .zst: the kernel's loader unpacks them
    where the kernel enables it)."""
    for base in ("lib/firmware", "usr/lib/firmware"):
        for suffix in ("", ".zst", ".xz"):
            p = root / base / (name + suffix)
            if p.is_file():
                return p
    return None


def archive(name: str, env=os.environ) -> Path:
    """The newc archive holding lib/firmware/<name> (built on first use, then cached)."""
    if not name or not NAME_RE.match(name) or ".." in name.split("/"):
        raise HarnessError(f"firmware name '{name}' is not a relative path under lib/firmware")
    version = candidate()
    d = cache_root(env) / "firmware" / f"{PACKAGE}_{version.replace(':', '%3a')}"
    root = d / "root"
    if not (d / ".unpacked").is_file():
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir(parents=True)
        dl = subprocess.run(["apt-get", "download", f"{PACKAGE}={version}"], cwd=d,
                            capture_output=True, text=True)
        debs = sorted(d.glob("*.deb"))
        if dl.returncode != 0 or not debs:
            last = (dl.stderr.strip().splitlines() or ["no .deb"])[-1]
            raise HarnessError(f"apt-get download {PACKAGE}={version} failed: {last}")
        x = subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(root)], capture_output=True,
                           text=True)
        if x.returncode != 0:
            raise HarnessError(f"dpkg-deb -x {debs[0].name} failed: {x.stderr.strip()}")
        debs[0].unlink()
        (d / ".unpacked").touch()
    src = find_in(root, name)
    if src is None:
        raise HarnessError(f"{PACKAGE} {version} has no lib/firmware/{name}")
    rel = "lib/firmware/" + name + src.name[len(Path(name).name):]
    out = d / (rel.replace("/", "_") + ".cpio")
    if not out.is_file():
        parts = rel.split("/")
        entries = [("/".join(parts[:i]), stat.S_IFDIR | 0o755, None)
                   for i in range(1, len(parts))]
        entries.append((rel, stat.S_IFREG | 0o644, src.read_bytes()))
        cpio.write_entries(out, entries)
    return out


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) == 2 else 2)
    try:
        print(archive(sys.argv[1]))
    except HarnessError as e:
        print(f"firmware: error: {e}", file=sys.stderr)
        sys.exit(2)
