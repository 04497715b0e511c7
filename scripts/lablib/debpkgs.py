# SPDX-License-Identifier: GPL-2.0-or-later
"""Debian userland for a guest overlay: the dependency closure of a few packages (apt-cache,
candidate versions), fetched with `apt-get download` and unpacked with `dpkg-deb -x` into
the cache (nothing is installed on the host), then packed by the caller into a newc archive.

The closure follows Depends and Pre-Depends; of alternatives ("a | b") the first one apt has
a candidate for is taken; "pkg:any" is pkg. EXCLUDE names the packages that only serve
package management or data no guest test reads (dpkg, debconf, perl-base, base-files,
tzdata, ...): the closure stops there, so a guest gets the programs and their libraries, not
a Debian system. The unpacked tree is cached under a key of every (package, version) pair:
<cache>/debpkgs/<key>/root, with packages.txt listing them; a new Debian version of any of
them is a new key."""
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Callable

from .result import HarnessError

# package management, configuration and data the guest's tests never use (see the module
# docstring); each would pull in a Debian system of its own (perl-base, debconf's perl)
EXCLUDE = frozenset({"dpkg", "debconf", "debconf-2.0", "perl-base", "base-files", "tzdata",
                     "install-info", "debianutils", "init-system-helpers", "sensible-utils",
                     "libpam-runtime", "libpam-modules", "libpam-modules-bin"})
# unpacked paths left out of the tree: documentation, manuals, translations
DROP_PREFIXES = ("usr/share/doc/", "usr/share/man/", "usr/share/info/", "usr/share/locale/",
                 "usr/share/lintian/", "usr/share/bug/",
                 # glibc's iconv modules: Python's codecs are its own
                 "usr/lib/x86_64-linux-gnu/gconv/")
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9+.-]*$")


def _apt_show(pkgs: list) -> str:
    """`apt-cache show` of several packages at once (one run per dependency level: each run
    loads apt's whole cache); the stanzas of the ones apt knows."""
    p = subprocess.run(["apt-cache", "show", "--no-all-versions", *pkgs], capture_output=True,
                       text=True)
    return p.stdout


def fields(text: str) -> dict:
    """The first stanza of `apt-cache show` output: {field: value} (continuation lines
    joined)."""
    out, key = {}, None
    for line in text.splitlines():
        if not line.strip():
            if out:
                break
            continue
        if line[0] in " \t" and key:
            out[key] += " " + line.strip()
            continue
        k, _, v = line.partition(":")
        key = k.strip()
        out[key] = v.strip()
    return out


def stanzas(text: str) -> dict:
    """{package: {field: value}} of `apt-cache show` output (continuation lines joined; the
    first stanza of a package wins)."""
    return {p: fields(b) for p, b in _blocks(text).items()}


def parse_depends(value: str) -> list:
    """'a (>= 1), b | c:any, d [amd64]' -> [['a'], ['b', 'c'], ['d']] (versions, arch
    qualifiers and architecture lists dropped)."""
    groups = []
    for group in (value or "").split(","):
        alts = []
        for alt in group.split("|"):
            name = re.sub(r"\(.*?\)|\[.*?\]|<.*?>", "", alt).strip().split(":")[0]
            if name:
                alts.append(name)
        if alts:
            groups.append(alts)
    return groups


def closure(roots: list, show: Callable[[list], str] = _apt_show,
            exclude: frozenset = EXCLUDE, asked: set | None = None) -> dict:
    """{package: candidate version} of roots and everything they depend on (Depends and
    Pre-Depends), sorted by name. HarnessError when a root has no candidate. asked: a set
    that gets every name looked up (the result is a function of their stanzas alone)."""
    info = {}

    def lookup(names):
        new = sorted({n for n in names if n not in info and _NAME_RE.match(n)})
        if asked is not None:
            asked.update(new)
        if new:
            got = stanzas(show(new))
            for n in new:
                f = got.get(n)
                info[n] = f if f and f.get("Version") else None
        return {n: info.get(n) for n in names}

    for r, f in lookup(list(roots)).items():
        if f is None:
            raise HarnessError(f"apt has no candidate for package '{r}' (apt-get update?)")
    out, level = {}, [r for r in roots if r not in exclude]
    while level:
        for pkg in level:
            out[pkg] = info[pkg]["Version"]
        groups = []
        for pkg in level:
            f = info[pkg]
            groups += parse_depends(f.get("Pre-Depends", "")) + parse_depends(f.get("Depends", ""))
        groups = [g for g in groups if not any(a in exclude for a in g)]
        lookup([a for g in groups for a in g])
        nxt = []
        for alts in groups:
            pick = next((a for a in alts if a in out or info.get(a) is not None), None)
            if pick is not None and pick not in out and pick not in nxt:
                nxt.append(pick)
        level = nxt
    return dict(sorted(out.items()))


def key(pkgs: dict) -> str:
    """The cache key of a set of {package: version}."""
    text = "".join(f"{p}={v}\n" for p, v in sorted(pkgs.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def unpacked(pkgs: dict, cache: Path, log: Callable[[str], None] = lambda m: None) -> Path:
    """The tree of the packages `pkgs` ({package: version}) unpacked into one root (cached:
    <cache>/debpkgs/<key>/root); HarnessError, one line, when apt cannot fetch one."""
    d = Path(cache) / "debpkgs" / key(pkgs)
    root = d / "root"
    if (d / "packages.txt").is_file():
        return root
    d.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".fetch-", dir=d))
    try:
        log(f"fetching {len(pkgs)} Debian packages (apt-get download) into {d}")
        want = [f"{p}={v}" for p, v in sorted(pkgs.items())]
        p = subprocess.run(["apt-get", "download", "-q", *want], cwd=work, capture_output=True,
                           text=True)
        if p.returncode != 0:
            why = (p.stderr.strip().splitlines() or ["apt-get download failed"])[-1]
            raise HarnessError(f"apt-get download of the guest packages failed: {why}")
        tree = work / "root"
        for deb in sorted(work.glob("*.deb")):
            x = subprocess.run(["dpkg-deb", "-x", str(deb), str(tree)], capture_output=True,
                               text=True)
            if x.returncode != 0:
                raise HarnessError(f"dpkg-deb -x {deb.name} failed: {x.stderr.strip()}")
        for prefix in DROP_PREFIXES:
            shutil.rmtree(tree / prefix, ignore_errors=True)
        shutil.rmtree(root, ignore_errors=True)
        tree.rename(root)
        (d / "packages.txt").write_text("".join(f"{x}\n" for x in want))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return root


def _lists_state(lists: Path = Path("/var/lib/apt/lists")) -> str:
    """A fingerprint of apt's package lists (names, sizes, mtimes): apt-get update changes it."""
    h = hashlib.sha256()
    for p in sorted(lists.glob("*_Packages*")) if lists.is_dir() else []:
        st = p.stat()
        h.update(f"{p.name} {st.st_size} {st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def _blocks(text: str) -> dict:
    """{package: its stanza's text} of `apt-cache show` output (the first stanza wins)."""
    out = {}
    for block in re.split(r"\n\s*\n", text):
        f = fields(block)
        if f.get("Package") and f["Package"] not in out:
            out[f["Package"]] = block
    return out


def closure_cached(roots: list, cache: Path, show: Callable[[list], str] = _apt_show,
                   lists_state: Callable[[], str] = _lists_state) -> dict:
    """closure(roots), remembered in <cache>/debpkgs/closure-roots-<roots>.txt with the
    fingerprint of apt's lists it was computed under and every name it looked up. Lists
    unchanged: the remembered closure. Lists changed (apt-get update): one apt-cache run
    over those names and the closure recomputed from their stanzas as they are now, exactly
    what a fresh computation gives (it reads nothing else); only when it would look up a name
    outside them (a package gained a dependency) is it computed afresh, one apt-cache run per
    dependency level (seconds each: every run loads apt's whole cache)."""
    tag = hashlib.sha256(" ".join(roots).encode()).hexdigest()[:16]
    f = Path(cache) / "debpkgs" / f"closure-roots-{tag}.txt"
    state = lists_state()
    prev_state, prev_asked, prev = read_closure_file(f)
    if prev is not None and prev_state == state:
        return prev
    out, asked = None, set()
    if prev is not None and prev_asked:
        have = _blocks(show(sorted(prev_asked)))
        outside = set()

        def offline(names):
            outside.update(n for n in names if n not in prev_asked)
            return "\n\n".join(have[n] for n in names if n in have)
        out = closure(roots, offline, asked=asked)
        if outside:
            out, asked = None, set()
    if out is None:
        out = closure(roots, show, asked=asked)
    f.parent.mkdir(parents=True, exist_ok=True)
    tmp = f.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(f"# lists {state}\n# asked {' '.join(sorted(asked))}\n"
                   + "".join(f"{p}={v}\n" for p, v in out.items()))
    os.replace(tmp, f)
    return out


def read_closure_file(f: Path) -> tuple:
    """(lists fingerprint, names looked up, {package: version}) of a closure_cached file;
    (None, set(), None) when there is none or it is not one."""
    try:
        lines = f.read_text().splitlines()
    except OSError:
        return None, set(), None
    if len(lines) < 2 or not lines[0].startswith("# lists ") or \
            not lines[1].startswith("# asked "):
        return None, set(), None
    pkgs = dict(line.split("=", 1) for line in lines[2:] if "=" in line)
    return lines[0][len("# lists "):], set(lines[1][len("# asked "):].split()), pkgs
