# SPDX-License-Identifier: GPL-2.0-or-later
"""Which Debian kernel a guest kernel name means: the one lookup of scripts/build-guest (the
linux-image package it unpacks) and scripts/build-driver (the linux-headers packages of the
same release, so a module's vermagic is the image's).

  6.1   the ABI linux-image-amd64 depends on (apt-cache depends), e.g. linux-image-6.1.0-57-amd64;
        else the newest linux-image-6.1.0-N-amd64 apt knows
  6.12  the newest linux-image-6.12.N+deb12-amd64 (bookworm-security)
  $RTL8168_KERNEL_PKG overrides the package name for both.
The version is apt's candidate (apt-cache policy), else the newest apt-cache show lists.

Command line (for the shell scripts):
  python3 scripts/lablib/kernelpkg.py 6.1   ->  package=... / version=... / release=... lines
exit 1 with a one-line error on stderr when apt knows no such package."""
import os
import re
import subprocess
import sys

KERNELS = ("6.1", "6.12")
PATTERNS = {
    "6.1": r"^linux-image-6\.1\.0-[0-9]+-amd64$",
    "6.12": r"^linux-image-6\.12\.[0-9]+\+deb12-amd64$",
}


class LookupError_(Exception):
    pass


def _apt(*args):
    p = subprocess.run(["apt-cache", *args], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else ""


def version_key(s):
    """Sort key close to `sort -V` for package names and versions."""
    return [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.findall(r"\d+|\D+", s)]


def newest(names):
    return sorted(names, key=version_key)[-1] if names else ""


def package(kernel, run=_apt, env=os.environ):
    if kernel not in KERNELS:
        raise LookupError_(f"unsupported kernel '{kernel}' (6.1 or 6.12)")
    pkg = env.get("RTL8168_KERNEL_PKG", "")
    if pkg:
        return pkg
    if kernel == "6.1":
        pkg = newest(re.findall(r"linux-image-6\.1\.0-[0-9]+-amd64", run("depends",
                                                                        "linux-image-amd64")))
    if not pkg:
        pkg = newest([n for n in run("pkgnames", "linux-image-").split()
                      if re.match(PATTERNS[kernel], n)])
    if not pkg:
        raise LookupError_(f"no linux-image package for {kernel} in apt's lists "
                           f"(run scripts/setup guest, or apt-get update)")
    return pkg


def version(pkg, run=_apt):
    m = re.search(r"Candidate:\s*(\S+)", run("policy", pkg))
    v = m.group(1) if m else ""
    if not v or v == "(none)":
        v = newest(re.findall(r"^Version:\s*(\S+)", run("show", pkg), re.M))
    if not v:
        raise LookupError_(f"apt knows no version of {pkg} (apt-get update?)")
    return v


def release(pkg):
    """The kernel release a linux-image package name carries (6.1.0-57-amd64)."""
    r = pkg[len("linux-image-"):] if pkg.startswith("linux-image-") else pkg
    return r[:-len("-unsigned")] if r.endswith("-unsigned") else r


def lookup(kernel, run=_apt, env=os.environ):
    pkg = package(kernel, run, env)
    return {"package": pkg, "version": version(pkg, run), "release": release(pkg)}


def main(argv):
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(__doc__.split("Command line", 1)[1].split("\n", 1)[1].rstrip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    try:
        d = lookup(argv[0])
    except LookupError_ as e:
        print(f"kernelpkg: error: {e}", file=sys.stderr)
        return 1
    for k in ("package", "version", "release"):
        print(f"{k}={d[k]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
