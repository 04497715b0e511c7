# SPDX-License-Identifier: GPL-2.0-or-later
"""Tests of scripts/regress and scripts/bisect that boot no guest (CTest regress.unit and
regress.bad-input): sharding, scenario selection, JUnit against junit.xsd, the cpio writer,
and the one-line exit-2 errors for bad input with nothing written.

  python3 -m unittest discover -s scripts/regress_lib -t scripts            # all
  RTL8168_REGRESS_UNIT_ONLY=1 python3 -m unittest ...                       # no kernel needed
The bad-input cases need the guest images and headers (scripts/build-guest, build-driver) and,
for the patch case, the stock sources (cached after the first download)."""
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True
HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent

from lablib import cpio
from regress_lib import kernels, matrix, report
from regress_lib.errors import BadInput

UNIT_ONLY = os.environ.get("RTL8168_REGRESS_UNIT_ONLY") == "1"


class Shard(unittest.TestCase):
    def test_every_entry_exactly_once(self):
        names = matrix.select(None, "r8169")
        # 7 guest scenarios (reconfig the latest) + 6 episodes (dma-after-close: r8169 only) +
        # the frames check + the conformance checks ipv6, vlan, rx-bad, rx-filter + the limits
        # checks tx-ring-full, rx-flood + the power-management checks suspend, runtime-pm
        self.assertEqual(len(names), 22)
        for n in range(1, 12):
            got = [x for i in range(1, n + 1) for x in matrix.shard(names, i, n)]
            self.assertEqual(sorted(got), sorted(names), n)
            self.assertEqual(len(got), len(set(got)), n)

    def test_order_does_not_matter(self):
        names = matrix.select(None, "r8169")
        self.assertEqual(matrix.shard(list(reversed(names)), 2, 3), matrix.shard(names, 2, 3))

    def test_bad_shards(self):
        for s in ("0/3", "4/3", "1/0", "a/b", "1", "", "-1/2"):
            with self.assertRaises(BadInput, msg=s):
                matrix.parse_shard(s)
        self.assertEqual(matrix.parse_shard("2/3"), (2, 3))


class Select(unittest.TestCase):
    def test_groups_and_names(self):
        self.assertEqual(matrix.select("lab", "r8169"),
                         ["aspm-l1", "dma-after-close", "dma-burst", "frames", "ipv6",
                          "msi-lost-irq", "offload-latency", "runtime-pm", "rx-bad", "rx-filter",
                          "rx-flood", "suspend", "tx-ring-full", "txpoll-stall", "vlan"])
        self.assertEqual(matrix.select("smoke,txpoll-stall,smoke", "r8169"),
                         ["smoke", "txpoll-stall"])
        # dma-after-close needs r8169's Wake-on-LAN paths, the conformance checks were not run
        # with rtl8168sim: not in its matrix
        self.assertEqual(matrix.select(None, "rtl8168sim"),
                         [n for n in matrix.select("lab", "r8169")
                          if n not in ("dma-after-close", "ipv6", "vlan", "rx-bad",
                                       "rx-filter", "tx-ring-full", "rx-flood", "suspend",
                                       "runtime-pm")])

    def test_unknown(self):
        with self.assertRaisesRegex(BadInput, "unknown scenario 'nope'"):
            matrix.select("smoke,nope", "r8169")
        with self.assertRaisesRegex(BadInput, "does not apply to rtl8168sim"):
            matrix.select("smoke", "rtl8168sim")
        with self.assertRaisesRegex(BadInput, "does not apply to rtl8168sim"):
            matrix.select("dma-after-close", "rtl8168sim")

    def test_scenario_files_exist(self):
        for n in matrix.GUEST:
            self.assertTrue((REPO / "guest-tests/scenarios" / f"{n}.sh").is_file(), n)
        for mod in matrix.LAB.values():
            self.assertTrue((REPO / "scripts/repro" / f"{mod}.py").is_file(), mod)


class GuestCases(unittest.TestCase):
    def test_per_class_lines_become_cases(self):
        from regress_lib import runner
        out = ("RESULT scenario=faults dir=tx rc=0 tool=stream-send status=ok mbps=80.1\n"
               "RESULT scenario=faults class=dma-read verdict=PASS fired=1 tx_mbps=80.1 why=ok\n"
               "RESULT scenario=faults class=tx-stop-fetch verdict=FAIL fired=1 watchdog=1 "
               "why=tx_stream_failed;\n"
               "VERDICT FAIL faults 6.1 rtl8168 guest: classes that did not recover: "
               "tx-stop-fetch (wall 99.0s)\n")
        self.assertEqual(runner.guest_cases(out), [
            {"case": "dma-read", "verdict": "PASS",
             "figures": {"fired": "1", "tx_mbps": "80.1", "why": "ok"}},
            {"case": "tx-stop-fetch", "verdict": "FAIL",
             "figures": {"fired": "1", "watchdog": "1", "why": "tx_stream_failed;"}}])
        self.assertEqual(runner.guest_cases("RESULT scenario=smoke ping=3/3\n"), [])


class Splats(unittest.TestCase):
    """Every entry's console logs are scanned (runner.judge_splats, lablib.splat); the kinds
    an entry provokes on purpose are declared in matrix.EXPECTED_SPLATS."""
    WARN = ("[    8.199530] WARNING: CPU: 0 PID: 17 at r8169/r8169_main.c:5003 "
            "rtl_shutdown+0x93/0xa0 [r8169]\n")
    WATCHDOG = ("  <4>[   21.402113] ------------[ cut here ]------------\n"
                "  <6>[   21.402140] NETDEV WATCHDOG: eth0 (r8169): transmit queue 0 timed out\n"
                "  <4>[   21.402301] WARNING: CPU: 0 PID: 0 at net/sched/sch_generic.c:525 "
                "dev_watchdog+0x21f/0x230\n")

    def result(self, d, name, status="PASS", reason="ok"):
        from regress_lib import runner
        return runner.Result(name, "6.1", "stock", status, reason, 1.0, d)

    def test_declarations_name_entries_and_kinds(self):
        from lablib import splat
        for name, kinds in matrix.EXPECTED_SPLATS.items():
            self.assertIn(name, matrix.names_for("r8169"), name)
            self.assertEqual(splat.unexpected([], kinds), [], name)
        self.assertEqual(matrix.expected_splats("faults"), ("tx-timeout",))
        self.assertEqual(matrix.expected_splats("smoke"), ())

    def test_a_warn_fails_a_passing_guest_entry(self):
        from regress_lib import runner
        with tempfile.TemporaryDirectory() as d:
            Path(d, "console-1.log").write_text("VERDICT PASS smoke ok\n" + self.WARN)
            Path(d, "console.log").write_text("VERDICT PASS smoke ok\n" + self.WARN)
            groups = runner.console_groups("smoke", d)
            self.assertEqual(groups, [[Path(d, "console-1.log")]])
            r = runner.judge_splats(self.result(d, "smoke"), groups,
                                    matrix.expected_splats("smoke"))
            self.assertEqual(r["status"], "FAIL")
            self.assertEqual(r["reason"], "kernel splat: " + self.WARN.split("] ", 1)[1].strip())
            self.assertEqual(r["splats"][0]["log"], "console-1.log")
            self.assertIn("console-1.log:2: [warning] WARNING: CPU: 0", r["log"])

    def test_the_splat_comes_before_an_entrys_own_reason(self):
        from regress_lib import runner
        with tempfile.TemporaryDirectory() as d:
            run = Path(d, "txpoll-r8169")
            run.mkdir()
            (run / "console.log").write_text(self.WATCHDOG)
            r = runner.judge_splats(
                self.result(d, "txpoll-stall", "FAIL", "[txpoll] expected CLEAN, observed "
                            "REPRODUCED"), runner.console_groups("txpoll-stall", d),
                matrix.expected_splats("txpoll-stall"))
            self.assertEqual(r["status"], "FAIL")
            self.assertEqual(r["reason"], "kernel splat: NETDEV WATCHDOG: eth0 (r8169): transmit "
                             "queue 0 timed out (+1 more splat line); [txpoll] expected CLEAN, "
                             "observed REPRODUCED")
            self.assertEqual(r["splats"][0]["log"], "txpoll-r8169/console.log")
            # TIMEOUT keeps its word
            r = runner.judge_splats(self.result(d, "txpoll-stall", "TIMEOUT", "no verdict"),
                                    runner.console_groups("txpoll-stall", d))
            self.assertEqual(r["status"], "TIMEOUT")

    def test_expected_kind_passes_and_is_recorded(self):
        from regress_lib import runner
        with tempfile.TemporaryDirectory() as d:
            Path(d, "console-1.log").write_text(self.WATCHDOG)
            r = runner.judge_splats(self.result(d, "faults"), runner.console_groups("faults", d),
                                    matrix.expected_splats("faults"))
            self.assertEqual((r["status"], r["reason"]), ("PASS", "ok"))
            self.assertEqual([(x["kind"], x["expected"]) for x in r["splats"]],
                             [("tx-timeout", True), ("tx-timeout", True)])
            # but not in another guest entry
            r = runner.judge_splats(self.result(d, "hostile"), runner.console_groups("hostile", d),
                                    matrix.expected_splats("hostile"))
            self.assertEqual(r["status"], "FAIL")


class Plants(unittest.TestCase):
    """The planted regressions of plants/ (docs/REGRESS.md "Planted: ..."): each applies to
    every stock r8169 source already in the cache (6.1, 6.12, 7.2 once a run has fetched
    them; none cached: skipped), as scripts/regress --driver FILE.patch applies them."""
    def test_each_plant_applies_to_the_cached_stock_sources(self):
        plants = sorted((HERE / "plants").glob("*.patch"))
        self.assertIn("r8169-warn-shutdown.patch", [p.name for p in plants])
        srcs = sorted((kernels.cache_root() / "r8169-src").glob("*/realtek"))
        if not srcs:
            self.skipTest("no stock r8169 sources cached")
        from regress_lib import plant_check
        for src in srcs:
            version = src.parent.name          # e.g. 6.1.192-3: its series' form if it has one
            for plant in [plant_check.plant_file(p.name, version) for p in plants]:
                with tempfile.TemporaryDirectory() as d:
                    rt = Path(d, "drivers/net/ethernet/realtek")
                    shutil.copytree(src, rt)
                    p = subprocess.run(["git", "apply", "--check", "-p1", str(plant)], cwd=d,
                                       capture_output=True, text=True,
                                       env=dict(os.environ, GIT_CEILING_DIRECTORIES=str(Path(d).parent)))
                    self.assertEqual(p.returncode, 0, f"{plant.name} on {src}: {p.stderr}")

    def test_a_kernel_name_picks_its_series_form(self):
        """plants/X.Y/PLANT for X.Y, X.Y.Z, X.Y-debug and `latest` naming X.Y (CTest's
        plants.*.latest); the generic form for a series without its own and for a bad name."""
        from unittest import mock
        from lablib import kernelpkg
        from regress_lib import plant_check
        plant = "r8169-resume-no-reinit.patch"
        own, generic = HERE / "plants" / "7.2" / plant, HERE / "plants" / plant
        self.assertTrue(own.is_file())
        self.assertFalse((HERE / "plants" / "6.12" / plant).exists())
        for k in ("7.2", "7.2.13-1", "7.2-debug"):
            self.assertEqual(plant_check.plant_file(plant, k), own, k)
        for k in ("6.1", "6.12", "6.12.118-1_deb12u1", "not-a-kernel"):
            self.assertEqual(plant_check.plant_file(plant, k), generic, k)
        with mock.patch.object(kernelpkg, "available", return_value=["6.1", "6.12", "7.2"]):
            self.assertEqual(plant_check.plant_file(plant, "latest"), own)
        with mock.patch.object(kernelpkg, "available", return_value=["6.1", "6.12"]):
            self.assertEqual(plant_check.plant_file(plant, "latest"), generic)
        with mock.patch.object(kernelpkg, "available", return_value=[]):
            self.assertEqual(plant_check.plant_file(plant, "latest"), generic)


class Baselines(unittest.TestCase):
    def test_compare(self):
        b = {"kernels": {"6.1": {"dma-burst.tcp_stream_mbps_1500": 941.4,
                                 "offload-latency.rr_mean_us_default": 800.0}}}
        got = {x[0]: x[5] for x in matrix.compare("6.1", {
            "dma-burst.tcp_stream_mbps_1500": 912.0,           # -3.1 %: regression
            "offload-latency.rr_mean_us_default": 830.0}, b)}  # +3.75 % latency: within 5 %
        self.assertEqual(got, {"dma-burst.tcp_stream_mbps_1500": False,
                               "offload-latency.rr_mean_us_default": True})
        self.assertEqual(matrix.compare("6.12", {"dma-burst.tcp_stream_mbps_1500": 1.0}, b), [])

    def test_stored_file(self):
        doc = matrix.load_baselines()
        for k, metrics in (doc.get("kernels") or {}).items():
            self.assertIn(k, kernels.KERNELS)
            for name in metrics:
                self.assertIn(name, matrix.metric_specs())
        from lablib import chips
        for chip, part in (doc.get("chips") or {}).items():
            # only chips the model lists, never the default (its figures are the top level)
            self.assertIn(chip, chips.ids())
            self.assertNotEqual(chip, chips.default_id())
            for k, metrics in (part.get("kernels") or {}).items():
                self.assertIn(k, kernels.KERNELS)
                self.assertIn(k, part.get("measured") or {})
                for name in metrics:
                    self.assertIn(name, matrix.metric_specs())

    def test_per_chip(self):
        """--chip NAME compares with NAME's own figures; the default chip (and no --chip) with
        the top level, as before."""
        from lablib import chips
        m = "dma-burst.tcp_stream_mbps_1500"
        b = {"kernels": {"6.1": {m: 941.4}},
             "chips": {"8168h": {"kernels": {"6.1": {m: 900.0}}}}}
        for chip in (None, chips.default_id()):
            [(_, _, base, _, _, ok)] = matrix.compare("6.1", {m: 910.0}, b, chip)
            self.assertEqual((base, ok), (941.4, False))
        [(_, _, base, _, _, ok)] = matrix.compare("6.1", {m: 910.0}, b, "8168h")
        self.assertEqual((base, ok), (900.0, True))
        self.assertEqual(matrix.compare("6.1", {m: 910.0}, b, "8168evl"), [])  # none stored
        self.assertEqual(matrix.chip_key("8168h"), "8168h")
        self.assertIsNone(matrix.chip_key(chips.default_id()))

    def test_update_per_chip(self):
        """--update-baselines --chip NAME writes under "chips" -> NAME and leaves the default
        chip's figures alone."""
        import importlib.machinery
        import importlib.util
        loader = importlib.machinery.SourceFileLoader("regress_cli", str(REPO / "scripts/regress"))
        spec = importlib.util.spec_from_loader("regress_cli", loader)
        cli = importlib.util.module_from_spec(spec)
        loader.exec_module(cli)
        tmp = Path(tempfile.mkdtemp(prefix="regress-test-"))
        self.addCleanup(shutil.rmtree, tmp, True)
        f = tmp / "baselines.json"
        f.write_text(json.dumps({"kernels": {"6.1": {"txpoll-stall.rr_mbps": 640.0}}}))
        saved = (matrix.BASELINES, os.environ.get("RTL8168_REGRESS_BASELINES"),
                 cli.kernels.image_info)
        matrix.BASELINES = f
        os.environ["RTL8168_REGRESS_BASELINES"] = str(f)
        cli.kernels.image_info = lambda k: {"release": "6.1.0-57-amd64"}

        def restore():
            matrix.BASELINES = saved[0]
            if saved[1] is None:
                os.environ.pop("RTL8168_REGRESS_BASELINES", None)
            else:
                os.environ["RTL8168_REGRESS_BASELINES"] = saved[1]
            cli.kernels.image_info = saved[2]
        self.addCleanup(restore)
        r = {"name": "txpoll-stall", "kind": "lab", "status": "PASS", "baseline": [],
             "cases": [], "metrics": {"txpoll-stall.rr_mbps": 500.123}}
        with contextlib.redirect_stderr(io.StringIO()):
            cli.update_baselines("6.1", [r], "8168h")
        doc = json.loads(f.read_text())
        self.assertEqual(doc["kernels"]["6.1"], {"txpoll-stall.rr_mbps": 640.0})
        self.assertEqual(doc["chips"]["8168h"]["kernels"]["6.1"], {"txpoll-stall.rr_mbps": 500.12})
        self.assertEqual(doc["chips"]["8168h"]["measured"]["6.1"]["entries"], ["txpoll-stall"])
        with contextlib.redirect_stderr(io.StringIO()):
            cli.update_baselines("6.1", [r], None)
        self.assertEqual(json.loads(f.read_text())["kernels"]["6.1"],
                         {"txpoll-stall.rr_mbps": 500.12})


class ModuleFiles(unittest.TestCase):
    """--driver guest-tests/driver: the build gets the register map rtl8168sim shares with the
    guest tools (guest-tests/programs/rtl8168-regs.h), as scripts/build-driver gives it."""

    def test_rtl8168sim_gets_the_shared_register_map(self):
        from regress_lib import driver
        names = [f.name for f in driver.module_files(REPO / "guest-tests" / "driver",
                                                      "rtl8168sim")]
        self.assertIn("rtl8168-regs.h", names)
        self.assertIn("main.c", names)
        self.assertNotIn("regpoke.c", names)

    def test_a_copy_with_its_own_header_keeps_it_and_r8169_gets_none(self):
        from regress_lib import driver
        tmp = Path(tempfile.mkdtemp(prefix="regress-test."))
        self.addCleanup(shutil.rmtree, tmp, True)
        (tmp / "main.c").write_text("int x;\n")
        (tmp / "rtl8168-regs.h").write_text("/* mine */\n")
        files = driver.module_files(tmp, "rtl8168sim")
        self.assertEqual([f for f in files if f.name == "rtl8168-regs.h"],
                         [tmp / "rtl8168-regs.h"])
        (tmp / "rtl8168-regs.h").unlink()
        self.assertEqual([f.name for f in driver.module_files(tmp, "r8169")], ["main.c"])


class ChipEntries(unittest.TestCase):
    def test_every_lab_entry_says_what_it_means_on_another_chip(self):
        self.assertEqual(set(matrix.ON_OTHER_CHIP), set(matrix.LAB))
        for name in matrix.names_for("r8169"):
            self.assertTrue(matrix.applies_to_chip(name, None))
            self.assertTrue(matrix.applies_to_chip(name, "8168h"), name)
        # the one entry tied to a chip: left out on the others
        self.assertEqual([n for n in matrix.names_for("r8169")
                          if not matrix.applies_to_chip(n, "8168c")], ["aspm-l1"])

    def test_dma_burst_figures_only_from_the_r8169_case(self):
        from regress_lib import runner
        pt = lambda mtu, mbps: {"kind": "point", "mtu": mtu, "mbps": mbps}  # noqa: E731
        cases = [{"case": "r8169", "results": [pt("1500", "941.2"), pt("1076", "918.0")]},
                 {"case": "r8169-burst1024", "results": [pt("1500", "830.0"),
                                                          pt("1076", "913.0")]}]
        self.assertEqual(runner.lab_metrics("dma-burst", cases),
                         {"dma-burst.tcp_stream_mbps_1500": 941.2,
                          "dma-burst.tcp_stream_mbps_1076": 918.0})


def _result(name, status, reason, log=""):
    return {"name": name, "kernel": "6.1", "driver": "x.patch@0123abcd", "kind": "lab",
            "status": status, "reason": reason, "wall_s": 1.5, "out_dir": "out/x", "log": log,
            "metrics": {}, "baseline": [], "cases": []}


class KernelOptions(unittest.TestCase):
    """Entries a kernel built from guest.config cannot run are left out by its .config."""

    def test_kernel_lacks(self):
        with tempfile.TemporaryDirectory() as d:
            cfg = Path(d) / ".config"
            names = ["dma-after-close", "aspm-l1", "smoke", "txpoll-stall"]
            cfg.write_text("CONFIG_PCI=y\n# CONFIG_INTEL_IOMMU is not set\nCONFIG_PCIEASPM=y\n")
            lacks = matrix.kernel_lacks(names, cfg)
            self.assertEqual(list(lacks), ["dma-after-close"])
            self.assertIn("CONFIG_INTEL_IOMMU is not set", lacks["dma-after-close"])
            cfg.write_text("CONFIG_INTEL_IOMMU=y\nCONFIG_PCIEASPM=y\n")
            self.assertEqual(matrix.kernel_lacks(names, cfg), {})
            cfg.write_text("")
            self.assertEqual(sorted(matrix.kernel_lacks(names, cfg)), ["aspm-l1", "dma-after-close"])
        # a Debian kernel: no .config to read, nothing left out
        self.assertEqual(matrix.kernel_lacks(names, None), {})
        self.assertEqual(matrix.kernel_lacks(names, "/nonexistent/.config"), {})


class Junit(unittest.TestCase):
    def test_lines(self):
        rs = [_result("smoke", "PASS", "ok"), _result("txpoll-stall", "FAIL", "stalled\nhard"),
              _result("migrate", "ERROR", "no QEMU")]
        self.assertEqual(report.verdict_line(rs[1]),
                         "FAIL txpoll-stall 6.1 x.patch@0123abcd stalled hard")
        self.assertEqual(report.summary_line(rs), "1 passed, 2 failed")
        self.assertEqual(report.summary_line([]), "0 passed, 0 failed")

    @unittest.skipUnless(shutil.which("xmllint"), "xmllint missing (scripts/setup regress)")
    def test_validates(self):
        rs = [_result("smoke", "PASS", "ok", "console \x1b[0m <&> \x00 tail"),
              _result("txpoll-stall", "FAIL", "expected CLEAN, observed REPRODUCED"),
              _result("migrate", "ERROR", "no QEMU")]
        meta = {"kernel": "6.1", "driver": "x.patch@0123abcd", "started": 0, "shard": "1/1"}
        with tempfile.TemporaryDirectory() as d:
            f = Path(d) / "j.xml"
            report.write_outputs(rs, meta, f, Path(d) / "j.json")
            p = subprocess.run(["xmllint", "--noout", "--schema", str(report.SCHEMA), str(f)],
                               capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            doc = json.loads((Path(d) / "j.json").read_text())
            self.assertEqual(doc["summary"], "1 passed, 2 failed")
            self.assertEqual(sorted(os.listdir(d)), ["j.json", "j.xml"])  # no temporaries left


class Cpio(unittest.TestCase):
    def test_roundtrip(self):
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "a.cpio"
            cpio.write(p, {"lib/modules/r/kernel/x/r8169.ko": (b"\x7fELF" * 3, 0o644)})
            self.assertEqual(cpio.names(p), ["lib", "lib/modules", "lib/modules/r",
                                             "lib/modules/r/kernel", "lib/modules/r/kernel/x",
                                             "lib/modules/r/kernel/x/r8169.ko"])
            if shutil.which("cpio"):
                t = subprocess.run(["cpio", "-t"], stdin=open(p, "rb"), capture_output=True,
                                   text=True)
                self.assertIn("lib/modules/r/kernel/x/r8169.ko", t.stdout.split())
            before = p.read_bytes()
            cpio.write(p, {"lib/modules/r/kernel/x/r8169.ko": (b"\x7fELF" * 3, 0o644)})
            self.assertEqual(p.read_bytes(), before)  # byte-identical run to run


def have_image(k):
    return (REPO / "build/guest" / k / "info").is_file()


@unittest.skipIf(UNIT_ONLY, "RTL8168_REGRESS_UNIT_ONLY=1")
class BadInputCli(unittest.TestCase):
    """Each bad input: exit 2, exactly one line on stderr naming the cause, no file written."""

    def setUp(self):
        self.tmp = Path(tempfile.mkdtemp(prefix="regress-test-"))
        self.out = self.tmp / "out"

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def regress(self, *args, prog="regress"):
        cmd = [sys.executable, str(REPO / "scripts" / prog), *args]
        if prog == "regress":
            cmd += ["--out", str(self.out), "--junit", str(self.tmp / "j.xml"),
                    "--json", str(self.tmp / "j.json")]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=600)

    def check(self, p, pattern):
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        self.assertTrue(lines, "no error line")
        self.assertRegex(lines[-1], pattern)
        self.assertEqual(len([l for l in lines if "error:" in l]), 1, p.stderr)
        self.assertFalse(self.out.exists(), "out dir written")
        self.assertFalse((self.tmp / "j.xml").exists(), "JUnit written")
        self.assertFalse((self.tmp / "j.json").exists(), "JSON written")

    def test_unknown_scenario(self):
        self.check(self.regress("--driver", "stock", "--kernel", "6.1", "--scenarios", "smok"),
                   r"^regress: error: unknown scenario 'smok'")

    def test_unknown_chip(self):
        from lablib import chips
        self.check(self.regress("--driver", "stock", "--kernel", "6.1", "--chip", "8168zz"),
                   rf"^regress: error: unknown chip '8168zz' \(known: {', '.join(chips.ids())}\)$")

    def test_bad_kernel_and_shard(self):
        self.check(self.regress("--driver", "stock", "--kernel", "5.10"), r"--kernel")
        self.check(self.regress("--driver", "stock", "--kernel", "6.1", "--shard", "3/2"),
                   r"--shard 3/2")

    def test_missing_driver(self):
        self.check(self.regress("--driver", str(self.tmp / "nope.patch"), "--kernel", "6.1"),
                   r"no such file or directory")

    @unittest.skipUnless(have_image("6.1"), "no 6.1 image (scripts/build-guest --kernel 6.1)")
    def test_patch_does_not_apply(self):
        p = self.tmp / "bad.patch"
        p.write_text("--- a/drivers/net/ethernet/realtek/r8169_main.c\n"
                     "+++ b/drivers/net/ethernet/realtek/r8169_main.c\n"
                     "@@ -1,2 +1,2 @@\n-this line is not in r8169\n+nor this\n context\n")
        self.check(self.regress("--driver", str(p), "--kernel", "6.1", "--scenarios",
                                "txpoll-stall"), r"patch .*bad\.patch does not apply")

    @unittest.skipUnless(have_image("6.1"), "no 6.1 image")
    def test_sources_do_not_build(self):
        src = self.tmp / "src"
        src.mkdir()
        (src / "r8169_main.c").write_text("#include <linux/module.h>\nthis is not C;\n")
        (src / "Makefile").write_text("r8169-objs := r8169_main.o\nobj-m += r8169.o\n")
        self.check(self.regress("--driver", str(src), "--kernel", "6.1", "--scenarios",
                                "txpoll-stall"), r"do not build against .*error")

    @unittest.skipUnless(have_image("6.1") and
                         (REPO / "build/driver/6.12/rtl8168sim.ko").is_file(),
                         "needs the 6.1 image and build/driver/6.12/rtl8168sim.ko")
    def test_ko_for_another_kernel(self):
        self.check(self.regress("--driver", str(REPO / "build/driver/6.12/rtl8168sim.ko"),
                                "--kernel", "6.1"),
                   r"vermagic 6\.12\.\S+ does not match the 6\.1 guest kernel")

    @unittest.skipUnless(have_image("6.1"), "no 6.1 image")
    def test_bisect_step_skips_a_revision_that_does_not_build(self):
        src = self.tmp / "src"
        src.mkdir()
        (src / "r8169_main.c").write_text("#include <linux/module.h>\nthis is not C;\n")
        (src / "Makefile").write_text("r8169-objs := r8169_main.o\nobj-m += r8169.o\n")
        p = subprocess.run([sys.executable, str(REPO / "scripts/bisect"), "--kernel", "6.1",
                            "--scenarios", "txpoll-stall", "--out", str(self.tmp / "o"),
                            "--step", str(src)], capture_output=True, text=True, timeout=300)
        self.assertEqual(p.returncode, 125, p.stdout + p.stderr)   # git bisect run: skip
        self.assertRegex(p.stdout, r"(?m)^SKIP \S+ does not build: .*error")

    def test_bisect_bad_input(self):
        p = self.regress("--good", "HEAD~1", "--bad", "HEAD", "--repo", str(self.tmp),
                         "--kernel", "6.1", prog="bisect")
        self.check(p, r"^bisect: error: --repo .*: not a git repository")
        p = self.regress("--good", "nope", "--bad", "HEAD", "--repo", str(REPO), "--kernel",
                         "6.1", prog="bisect")
        self.check(p, r"--good nope: not a commit")
        p = self.regress("--good", "HEAD~1", "--bad", "HEAD", "--repo", str(REPO), "--kernel",
                         "6.1", "--scenario", "bogus", prog="bisect")
        self.check(p, r"unknown scenario 'bogus'")


if __name__ == "__main__":
    unittest.main()
