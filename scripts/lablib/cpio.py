# SPDX-License-Identifier: GPL-2.0-or-later
"""newc cpio: the one writer of every archive appended to a guest image's initramfs (the
lab's overlay, the driver smoke test's overlay, scripts/regress's module under test), and a
reader that lists the names of a (possibly concatenated) archive.

The kernel unpacks concatenated archives in order and a later regular file replaces an earlier
one, so an archive appended to the image's initramfs overrides single files of the image.
Archives are byte-identical run to run: inode numbers count from 1 in each archive, mtime 0,
owner 0, the trailer padded to 512 bytes. Lab runs depend on that (the guest's timing, and so
the model's trace hashes, depend on every byte the guest unpacks)."""
import os
import stat

DIR = stat.S_IFDIR | 0o755


def _entry(out, ino, name, mode, data):
    nb = name.encode() + b"\0"
    nlink = 2 if stat.S_ISDIR(mode) else 1
    fields = [ino, mode, 0, 0, nlink, 0, len(data), 0, 0, 0, 0, len(nb), 0]
    hdr = b"070701" + b"".join(b"%08X" % f for f in fields)
    out.write(hdr + nb)
    out.write(b"\0" * ((4 - (len(hdr) + len(nb)) % 4) % 4))
    out.write(data)
    out.write(b"\0" * ((4 - len(data) % 4) % 4))


def write_entries(path, entries):
    """entries: [(name, mode, bytes or None)] in archive order (parents before children; a
    mode from stat, e.g. stat.S_IFREG | 0o755). Written atomically."""
    path = str(path)
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "wb") as out:
        n = 0
        for n, (name, mode, data) in enumerate(entries, 1):
            _entry(out, n, name, mode, data or b"")
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


def read(path):
    """[(name, mode, bytes)] of every member of a (possibly concatenated) newc archive, the
    trailers left out."""
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
        nsize = int(data[pos + 94:pos + 102], 16)
        name = data[pos + 110:pos + 110 + nsize - 1].decode(errors="replace")
        pos += 110 + nsize
        pos += (4 - pos % 4) % 4
        body = data[pos:pos + size]
        pos += size
        pos += (4 - pos % 4) % 4
        if name != "TRAILER!!!":
            out.append((name, mode, body))
    return out


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
