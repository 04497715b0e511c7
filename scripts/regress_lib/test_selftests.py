# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of the selftests entry (regress_lib/selftests.py, selftests_run.py) and of the
SKIP status in the regress output:  cd scripts && python3 -m unittest regress_lib.test_selftests"""
import stat
import tempfile
import unittest
from pathlib import Path

from lablib import cpio
from lablib.result import Kind
from regress_lib import kernels, matrix, report, selftests
from regress_lib.errors import BadInput

CONSOLE = """[    3.1] Run /init as init process
LAB kernel=6.12.118+deb12-amd64 case=selftests driver=r8169
SELFTEST BEGIN name=drivers/net/ping.py
KTAP version 1
1..3
ok 1 ping.test_v4
ok 2 ping.test_v6
ok 3 ping.test_tcp
# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0
SELFTEST END name=drivers/net/ping.py rc=0 ms=8123
SELFTEST BEGIN name=drivers/net/queues.py
KTAP version 1
1..4
ok 1 queues.get_queues
[   40.000001] WARNING: CPU: 0 PID: 77 at net/core/dev.c:1 netif_foo+0x1/0x2
SELFTEST END name=drivers/net/queues.py rc=137 ms=45012
SELFTEST BEGIN name=drivers/net/stats.py
KTAP version 1
1..5
ok 1 stats.check_pause
"""


def make_tree(root: Path, tests=("ping.py", "queues.py", "stats.py", "xdp.py",
                                 "netcons_basic.sh"), hw=True,
              settings=None) -> Path:
    d = root / selftests.DRV_DIR
    (d / "lib" / "py").mkdir(parents=True)
    (d / "lib" / "py" / "env.py").write_text("class NetDrvEpEnv: pass\n")
    for t in tests:
        (d / t).write_text("#!/usr/bin/env python3\n")
    if hw:
        (d / "hw").mkdir()
        (d / "hw" / "csum.py").write_text("\n")
    if settings:
        (d / "settings").write_text(settings)
    return root


class PlanAndOverlay(unittest.TestCase):
    def test_plan_runs_the_rest_and_names_why_not(self):
        with tempfile.TemporaryDirectory() as t:
            p = selftests.plan(make_tree(Path(t)), "linux-source-6.12=6.12.118-1~deb12u1")
        self.assertEqual(p.run, [("drivers/net/ping.py", 45), ("drivers/net/queues.py", 45),
                                 ("drivers/net/stats.py", 45)])
        self.assertEqual(p.not_run[0], ("drivers/net/netcons_basic.sh",
                                        selftests.NOT_RUN["netcons_basic.sh"]))
        self.assertEqual(p.not_run[1], ("drivers/net/xdp.py", selftests.NOT_RUN["xdp.py"]))
        self.assertEqual(p.not_run[2][0], "drivers/net/hw")
        self.assertTrue(p.not_run[2][1].startswith("1 Python tests: "))

    def test_settings_raise_the_limit(self):
        with tempfile.TemporaryDirectory() as t:
            p = selftests.plan(make_tree(Path(t), ("ping.py",), settings="timeout=360\n"), "x")
        self.assertEqual(p.run, [("drivers/net/ping.py", 360)])

    def test_a_tree_without_python_tests_is_one_skip(self):
        with tempfile.TemporaryDirectory() as t:
            (Path(t) / selftests.DRV_DIR).mkdir(parents=True)
            with self.assertRaises(selftests.SkipAll) as cm:
                selftests.plan(Path(t), "linux-source-6.1=6.1.192-3")
        self.assertEqual(str(cm.exception), "linux-source-6.1=6.1.192-3 has no Python tests in "
                         "tools/testing/selftests/drivers/net (their lib/py NetDrvEnv came with "
                         "6.10)")

    def test_series_before_6_10_skip_without_the_source(self):
        with self.assertRaises(selftests.SkipAll) as cm:
            selftests.check_series("6.1")
        self.assertIn("linux-source-6.1 has no Python tests", str(cm.exception))
        selftests.check_series("6.12")
        selftests.check_series("7.2")

    def test_overlay_is_parents_first_and_byte_identical(self):
        with tempfile.TemporaryDirectory() as t:
            t = Path(t)
            tree = make_tree(t / "src", ("ping.py",), hw=False)
            (tree / "Documentation/netlink/specs").mkdir(parents=True)
            (tree / "Documentation/netlink/specs/netdev.yaml").write_text("name: netdev\n")
            root = t / "deb"
            (root / "usr/bin").mkdir(parents=True)
            (root / "usr/bin/python3.11").write_bytes(b"\x7fELF")
            (root / "usr/bin/python3").symlink_to("python3.11")
            p = selftests.plan(tree, "x")
            a = selftests.overlay(p, root, t / "a.cpio")
            b = selftests.overlay(p, root, t / "b.cpio")
            self.assertEqual(a.read_bytes(), b.read_bytes())
            members = cpio.members(a)
        names = [m[0] for m in members]
        for i, n in enumerate(names):
            parent = n.rsplit("/", 1)[0] if "/" in n else None
            if parent:
                self.assertIn(parent, names[:i], n)
        by = {m[0]: m for m in members}
        self.assertEqual(by["selftests/tests"][2], b"drivers/net/ping.py 45\n")
        self.assertIn("opt/ksrc/tools/testing/selftests/drivers/net/ping.py", by)
        self.assertIn("opt/ksrc/Documentation/netlink/specs/netdev.yaml", by)
        self.assertTrue(stat.S_ISLNK(by["usr/bin/env"][1]))
        self.assertEqual(by["usr/bin/env"][2], b"/bin/busybox")
        self.assertEqual(by["usr/bin/python3"][2], b"python3.11")


class Caches(unittest.TestCase):
    """What a run takes from the cache instead of building or asking apt again."""

    def setUp(self):
        from unittest import mock
        self.tmp = tempfile.TemporaryDirectory()
        self.cache = Path(self.tmp.name)
        patch = mock.patch.object(kernels, "cache_root", return_value=self.cache)
        patch.start()
        self.addCleanup(patch.stop)
        self.addCleanup(self.tmp.cleanup)

    def plan_and_root(self, ser="6.12", version="6.12.118-1~deb12u1", key="66b20bbbba23ceeb"):
        top = selftests.extracted_dir(ser, version) / f"linux-source-{ser}"
        if not (top / selftests.DRV_DIR).is_dir():
            make_tree(top, ("ping.py",), hw=False)
        root = self.cache / "debpkgs" / key / "root"
        (root / "usr/bin").mkdir(parents=True, exist_ok=True)
        (root / "usr/bin/python3.11").write_bytes(b"\x7fELF")
        return selftests.plan(top, f"linux-source-{ser}={version}"), root

    def test_an_extracted_source_asks_apt_nothing(self):
        from unittest import mock
        from lablib import debugkernel
        d = selftests.extracted_dir("6.12", "6.12.118-1~deb12u1")
        self.assertEqual(d.name, "linux-source-6.12_6.12.118-1_deb12u1")
        make_tree(d / "linux-source-6.12", ("ping.py",))
        (d / ".extracted").write_text("linux-source-6.12=6.12.118-1~deb12u1\n")
        with mock.patch.object(debugkernel, "source_tarball",
                               side_effect=AssertionError("asked apt")):
            top, origin = selftests.source_tree("6.12", version="6.12.118-1~deb12u1")
        self.assertEqual(top, d / "linux-source-6.12")
        self.assertEqual(origin, "linux-source-6.12=6.12.118-1~deb12u1")
        # another version (or none known) goes the long way: apt names the tarball
        with mock.patch.object(debugkernel, "source_tarball",
                               side_effect=debugkernel.DebugKernelError("asked apt")):
            for v in ("6.12.119-1~deb12u1", ""):
                with self.assertRaises(BadInput):
                    selftests.source_tree("6.12", version=v)

    def test_the_overlay_key_is_what_it_is_built_from(self):
        p, root = self.plan_and_root()
        k = selftests.overlay_key(p, root)
        self.assertEqual(k, selftests.overlay_key(p, root))
        p2, root2 = self.plan_and_root(key="0000000000000000")
        self.assertNotEqual(k, selftests.overlay_key(p, root2), "package versions")
        p3, _ = self.plan_and_root("7.2", "7.2.13-1")
        self.assertNotEqual(k, selftests.overlay_key(p3, root), "kernel source")
        p4 = selftests.Plan(p.tree, p.origin, [("drivers/net/ping.py", 90)], p.not_run)
        self.assertNotEqual(k, selftests.overlay_key(p4, root), "test list and limits")

    def test_the_overlay_is_packed_once_and_old_ones_pruned(self):
        from unittest import mock
        p, root = self.plan_and_root()
        with mock.patch.object(selftests, "overlay", wraps=selftests.overlay) as packed:
            a, ka = selftests.cached_overlay(p, root)
            b, kb = selftests.cached_overlay(p, root)
        self.assertEqual(packed.call_count, 1)
        self.assertEqual((a, ka), (b, kb))
        self.assertEqual(a.name, f"{ka}.cpio")
        fresh = self.cache / "fresh.cpio"
        selftests.overlay(p, root, fresh)
        self.assertEqual(a.read_bytes(), fresh.read_bytes())
        made = [a]
        for i in range(1, 4):
            q = selftests.Plan(p.tree, p.origin, [("drivers/net/ping.py", 45 + i)], [])
            made.append(selftests.cached_overlay(q, root, keep=2)[0])
        left = sorted((self.cache / "selftests" / "overlays").glob("*.cpio"))
        self.assertEqual(left, sorted(made[-2:]))


class Verdicts(unittest.TestCase):
    PLAN = selftests.Plan(Path("/x"), "o", [("drivers/net/ping.py", 45),
                                            ("drivers/net/queues.py", 45),
                                            ("drivers/net/stats.py", 45),
                                            ("drivers/net/shaper.py", 45)],
                          [("drivers/net/xdp.py", "XDP: r8169 has no XDP support")])

    def test_sections(self):
        s = selftests.sections(CONSOLE)
        self.assertEqual(list(s), ["drivers/net/ping.py", "drivers/net/queues.py",
                                   "drivers/net/stats.py"])
        self.assertEqual((s["drivers/net/ping.py"].rc, s["drivers/net/ping.py"].ms), (0, 8123))
        self.assertIsNone(s["drivers/net/stats.py"].rc)
        self.assertEqual(selftests.test_of_line(s, 15), "drivers/net/queues.py")
        self.assertIsNone(selftests.test_of_line(s, 2))

    def test_each_test_its_verdict_and_the_hang_named(self):
        v = selftests.verdicts(self.PLAN, CONSOLE, Kind.TIMEOUT,
                               "no guest power-off within 900 s wall")
        got = [(n, st) for n, st, _, _, _ in v]
        self.assertEqual(got, [("selftests.ping", "PASS"), ("selftests.queues", "TIMEOUT"),
                               ("selftests.stats", "TIMEOUT"), ("selftests.shaper", "TIMEOUT"),
                               ("selftests.xdp", "SKIP")])
        self.assertEqual(v[0][2], "3 pass")
        self.assertIn("killed at its limit of 45 s after 1 of 4 cases", v[1][2])
        self.assertIn("never ended", v[2][2])
        self.assertIn("no guest power-off within 900 s wall", v[2][2])
        self.assertEqual(v[3][2], "not run: the guest stopped before it (no guest power-off "
                         "within 900 s wall)")
        self.assertEqual(v[4][2], "XDP: r8169 has no XDP support")

    def test_splats_go_to_the_test_that_printed_them(self):
        with tempfile.TemporaryDirectory() as t:
            p = Path(t) / "console.log"
            p.write_text(CONSOLE)
            by = selftests.splats_by_test(p)
        self.assertEqual(list(by), ["drivers/net/queues.py"])
        self.assertEqual(by["drivers/net/queues.py"][0].kind, "warning")

    def test_short_names(self):
        self.assertEqual(selftests.short_name("drivers/net/ping.py"), "selftests.ping")
        self.assertEqual(selftests.short_name("drivers/net/hw"), "selftests.hw")


PANIC_CONSOLE = """SELFTEST BEGIN name=drivers/net/ping.py
KTAP version 1
1..1
ok 1 ping.test_v4
SELFTEST END name=drivers/net/ping.py rc=0 ms=5000
SELFTEST BEGIN name=drivers/net/stats.py
KTAP version 1
1..5
[   52.000001] Kernel panic - not syncing: Fatal exception in interrupt
"""


class RunEntry(unittest.TestCase):
    """selftests_run.run with the lab run replaced: how its end becomes the results."""

    def run_with(self, console, kind, reason):
        from unittest import mock
        from lablib import lab
        from regress_lib import selftests_run
        from regress_lib.driver import Module
        p = selftests.Plan(Path("/x"), "linux-source-6.12=6.12.118-1~deb12u1",
                           [("drivers/net/ping.py", 45), ("drivers/net/stats.py", 45),
                            ("drivers/net/queues.py", 45)],
                           [("drivers/net/hw", "hw reason")])

        class Res:
            pass
        res = Res()
        res.kind, res.reason, res.report = kind, reason, "report"

        def fake_run(spec, out, say=None):
            Path(out).mkdir(parents=True, exist_ok=True)
            (Path(out) / "console.log").write_text(console)
            return res

        with tempfile.TemporaryDirectory() as d, \
                mock.patch.object(selftests, "series_of", return_value="6.12"), \
                mock.patch.object(selftests, "source_tree", return_value=(Path("/x"), "o")), \
                mock.patch.object(selftests, "image_version", return_value=""), \
                mock.patch.object(selftests, "plan", return_value=p), \
                mock.patch.object(selftests, "userland", return_value=Path(d)), \
                mock.patch.object(selftests, "cached_overlay",
                                  return_value=(Path(__file__), "0123456789abcdef")), \
                mock.patch.object(lab, "run", side_effect=fake_run):
            return selftests_run.run("6.12", Module("stock", "r8169"), None, Path(d) / "out")

    def test_a_panic_names_the_test_it_hit_and_the_rest_not_run(self):
        rs = self.run_with(PANIC_CONSOLE, Kind.TIMEOUT, "no guest power-off within 945 s wall")
        got = [(r["name"], r["status"]) for r in rs]
        self.assertEqual(got, [("selftests.ping", "PASS"), ("selftests.stats", "TIMEOUT"),
                               ("selftests.queues", "TIMEOUT"), ("selftests.hw", "SKIP")])
        self.assertTrue(rs[1]["reason"].startswith(
            "kernel splat: Kernel panic - not syncing: Fatal exception in interrupt; "
            "never ended (the guest stopped) after 0 of 5 cases"), rs[1]["reason"])
        self.assertIn("no guest power-off within 945 s wall", rs[1]["reason"])
        self.assertEqual(rs[2]["reason"], "not run: the guest stopped before it (no guest "
                         "power-off within 945 s wall)")
        self.assertEqual(rs[0]["virtual_s"], 5.0)

    def test_a_lab_failure_after_every_test_is_its_own_line(self):
        console = "".join(f"SELFTEST BEGIN name=drivers/net/{t}.py\nKTAP version 1\n1..1\n"
                          f"ok 1 {t}.a\nSELFTEST END name=drivers/net/{t}.py rc=0 ms=1\n"
                          for t in ("ping", "stats", "queues"))
        rs = self.run_with(console, Kind.FAIL, "frames reordered")
        self.assertEqual([(r["name"], r["status"]) for r in rs][-1],
                         ("selftests", "FAIL"))
        self.assertEqual(rs[-1]["reason"], "lab run: frames reordered")
        self.assertEqual([r["status"] for r in rs[:3]], ["PASS"] * 3)


class MatrixAndReport(unittest.TestCase):
    def test_selftests_is_opt_in(self):
        self.assertIn("selftests", matrix.names_for("r8169"))
        self.assertNotIn("selftests", matrix.select(None, "r8169"))
        self.assertNotIn("selftests", matrix.select("all", "r8169"))
        self.assertEqual(matrix.select("selftests,smoke", "r8169"), ["selftests", "smoke"])
        self.assertEqual(matrix.kind("selftests.ping"), "selftests")
        self.assertTrue(matrix.applies_to_chip("selftests", "8168h"))

    def test_skip_is_neither_passed_nor_failed(self):
        rs = [{"status": s, "name": n, "kernel": "6.12", "driver": "stock", "reason": "r",
               "wall_s": 1.0, "out_dir": "/o"} for s, n in
              (("PASS", "selftests.ping"), ("SKIP", "selftests.xdp"), ("FAIL", "smoke"))]
        self.assertEqual(report.summary_line(rs), "1 passed, 1 failed, 1 skipped")
        self.assertEqual(report.summary_line(rs[:1]), "1 passed, 0 failed")
        self.assertEqual([report.ok(r) for r in rs], [True, True, False])
        xml = report.junit(rs, {"kernel": "6.12", "driver": "stock", "started": 0})
        self.assertIn('skipped="1"', xml)
        self.assertIn('<skipped message="r"', xml)


if __name__ == "__main__":
    unittest.main()
