# SPDX-License-Identifier: GPL-2.0-or-later
"""newc cpio: the one writer of every archive a guest boots from -- the guest image's initramfs
(scripts/build-guest packs its staged tree with `cpio.py pack`), the lab's overlay, the driver
smoke test's overlay, scripts/regress's module under test -- and a reader that lists the
members of a (possibly concatenated) archive.

The kernel unpacks concatenated archives in order and a later regular file replaces an earlier
one, so an archive appended to the image's initramfs overrides single files of the image.
Archives are byte-identical for the same contents, whatever the files' mtimes, inode numbers,
owners or the builder's umask: inode numbers count from 1 in each archive in archive order,
mtime 0, owner 0, no device of origin, the trailer padded to 512 bytes; a staged tree is
written in sorted order (bytes, as `find . | LC_ALL=C sort`) with normalised modes. Lab runs
depend on that (the guest's timing, and so the model's trace hashes, depend on every byte the
guest unpacks).

  python3 scripts/lablib/cpio.py pack DIR OUT [--node NAME=c|b,MAJOR,MINOR,MODE]...
  python3 scripts/lablib/cpio.py list ARCHIVE"""
import os
import stat
import sys

DIR = stat.S_IFDIR | 0o755


def _entry(out, ino, name, mode, data, rdev=(0, 0)):
    nb = name.encode() + b"\0"
    nlink = 2 if stat.S_ISDIR(mode) else 1
    fields = [ino, mode, 0, 0, nlink, 0, len(data), 0, 0, rdev[0], rdev[1], len(nb), 0]
    hdr = b"070701" + b"".join(b"%08X" % f for f in fields)
    out.write(hdr + nb)
    out.write(b"\0" * ((4 - (len(hdr) + len(nb)) % 4) % 4))
    out.write(data)
    out.write(b"\0" * ((4 - len(data) % 4) % 4))


def write_entries(path, entries):
    """entries: [(name, mode, bytes or None[, (rdev major, minor)])] in archive order (parents
    before children; a mode from stat, e.g. stat.S_IFREG | 0o755; a symlink's bytes are its
    target; the rdev pair only for device nodes). Written atomically."""
    path = str(path)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as out:
        n = 0
        for n, (name, mode, data, *rdev) in enumerate(entries, 1):
            _entry(out, n, name, mode, data or b"", *rdev)
        _entry(out, n + 1, "TRAILER!!!", 0, b"")
        pad = out.tell() % 512
        if pad:
            out.write(b"\0" * (512 - pad))
    os.replace(tmp, path)


class Tree:
    """Entries in insertion order, each file's parent directories added before it once."""

    def __init__(self):
        self.entries, self._dirs = [], set()

    def dir(self, d):
        parts = [p for p in d.split("/") if p]
        for i in range(1, len(parts) + 1):
            p = "/".join(parts[:i])
            if p not in self._dirs:
                self._dirs.add(p)
                self.entries.append((p, DIR, None))

    def file(self, name, data, mode=0o644):
        self.dir(os.path.dirname(name))
        self.entries.append((name, stat.S_IFREG | mode, data))

    def write(self, path):
        write_entries(path, self.entries)


def write(path, files):
    """files: {archive path: (bytes, mode)}, written in sorted order with parents added."""
    t = Tree()
    for name in sorted(files):
        data, mode = files[name]
        t.file(name, data, mode)
    t.write(path)


def tree_entries(root, nodes=()):
    """The entries of the directory tree under root (root itself as "."), sorted by name bytes,
    so parents come before their children. Modes are normalised (directories 0755, symlinks
    0777, regular files 0755 when any execute bit is set, else 0644; device nodes keep their
    permission bits); regular files are stored whole, a hard link as another copy.
    nodes: extra device nodes [(name, mode, (major, minor))] (e.g. dev/console, so that an
    image built without root has them too); a staged file of the same name is replaced."""
    root = os.fsencode(root)
    extra = {n: (m, r) for n, m, r in nodes}
    paths = [b"."]
    for top, dirs, files in os.walk(root):
        rel = os.path.relpath(top, root)
        for n in dirs + files:
            paths.append(os.path.normpath(os.path.join(rel, n)))
    for n in extra:
        p = os.fsencode(n)
        if p not in paths:
            paths.append(p)
    out = []
    for p in sorted(paths, key=lambda p: (p != b".", p)):
        name = os.fsdecode(p)
        if name in extra:
            mode, rdev = extra[name]
            if not (stat.S_ISCHR(mode) or stat.S_ISBLK(mode)):
                raise ValueError(f"{name}: not a device node mode {mode:o}")
            out.append((name, mode, None, rdev))
            continue
        full = os.path.join(root, p)
        st = os.lstat(full)
        if stat.S_ISDIR(st.st_mode):
            out.append((name, DIR, None))
        elif stat.S_ISLNK(st.st_mode):
            out.append((name, stat.S_IFLNK | 0o777, os.readlink(full)))
        elif stat.S_ISREG(st.st_mode):
            perm = 0o755 if st.st_mode & 0o111 else 0o644
            with open(full, "rb") as f:
                out.append((name, stat.S_IFREG | perm, f.read()))
        elif stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode):
            out.append((name, stat.S_IFMT(st.st_mode) | (st.st_mode & 0o777), None,
                        (os.major(st.st_rdev), os.minor(st.st_rdev))))
        else:
            raise ValueError(f"{name}: cannot archive file type {stat.S_IFMT(st.st_mode):o}")
    return out


def pack(root, path, nodes=()):
    """Write the tree under root (and the extra device nodes) as one newc archive."""
    write_entries(path, tree_entries(root, nodes))


def members(path):
    """[(name, mode, bytes, (rdev major, minor))] of every member of a (possibly concatenated)
    newc archive in archive order, the trailers left out: entries write_entries takes back."""
    with open(path, "rb") as f:
        data = f.read()
    out, pos = [], 0
    while pos + 110 <= len(data):
        if data[pos:pos + 6] not in (b"070701", b"070702"):
            # zero padding between concatenated archives
            nxt = data.find(b"0707", pos)
            if nxt < 0:
                break
            pos = nxt
            continue
        mode = int(data[pos + 14:pos + 22], 16)
        size = int(data[pos + 54:pos + 62], 16)
        rdev = (int(data[pos + 78:pos + 86], 16), int(data[pos + 86:pos + 94], 16))
        nsize = int(data[pos + 94:pos + 102], 16)
        name = data[pos + 110:pos + 110 + nsize - 1].decode(errors="replace")
        pos += 110 + nsize
        pos += (4 - pos % 4) % 4
        body = data[pos:pos + size]
        pos += size
        pos += (4 - pos % 4) % 4
        if name != "TRAILER!!!":
            out.append((name, mode, body, rdev))
    return out


def read(path):
    """[(name, mode, bytes)] of every member of a (possibly concatenated) newc archive, the
    trailers left out."""
    return [(n, m, b) for n, m, b, _ in members(path)]


def without(src, dest, drop):
    """dest = the archive src with every member for which drop(name) is true left out (the
    others in their order, with their modes, contents and device numbers; inode numbers
    counted afresh, so the same src and drop give a byte-identical dest)."""
    write_entries(dest, [(n, m, b, r) for n, m, b, r in members(src) if not drop(n)])


def names(path):
    """Every member name of a (possibly concatenated) newc archive."""
    return [n for n, _, _ in read(path)]


def concat(dest, parts):
    """dest = the archives in order (an image's initramfs, then overlays)."""
    tmp = f"{dest}.tmp{os.getpid()}"
    with open(tmp, "wb") as out:
        for p in parts:
            with open(p, "rb") as f:
                while True:
                    b = f.read(1 << 20)
                    if not b:
                        break
                    out.write(b)
    os.replace(tmp, dest)


def _node(arg):
    """NAME=c|b,MAJOR,MINOR,MODE (octal) -> (name, mode, (major, minor))."""
    name, spec = arg.split("=", 1)
    kind, major, minor, perm = spec.split(",")
    fmt = {"c": stat.S_IFCHR, "b": stat.S_IFBLK}[kind]
    return name.strip("/"), fmt | (int(perm, 8) & 0o777), (int(major), int(minor))


def main(argv):
    usage = __doc__[__doc__.index("  python3"):]
    if len(argv) >= 3 and argv[0] == "pack":
        try:
            nodes = [_node(a) for a in _opt_values(argv[3:], "--node")]
            pack(argv[1], argv[2], nodes)
        except (ValueError, KeyError, OSError) as e:
            print(f"cpio.py: error: {e}", file=sys.stderr)
            return 1
        return 0
    if len(argv) == 2 and argv[0] == "list":
        for n in names(argv[1]):
            print(n)
        return 0
    print(f"usage:\n{usage}", file=sys.stderr)
    return 2


def _opt_values(args, opt):
    if len(args) % 2 or any(a != opt for a in args[::2]):
        raise ValueError(f"expected {opt} VALUE pairs, got {' '.join(args)}")
    return args[1::2]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
