# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit tests of lablib.ktap (the selftests' KTAP output) and lablib.debpkgs (the Debian
package closure of a guest overlay):  cd scripts && python3 -m unittest lablib.test_ktap"""
import tempfile
import unittest
from pathlib import Path

from lablib import debpkgs, ktap
from lablib.result import HarnessError

# what 6.12's stats.py prints on r8169 (ksft.py), with a kernel line on the shared console
STATS = """KTAP version 1
1..5
ok 1 stats.check_pause
ok 2 stats.check_fec # XFAIL FEC not supported by the device
[   31.123456] r8169 0000:01:00.0 eth0: Link is Down
ok 3 stats.pkt_byte_sum # SKIP qstats not supported by the device
ok 4 stats.qstat_by_ifindex # SKIP No ifindex supports qstats
ok 5 stats.check_down # SKIP qstats not supported by the device
# Totals: pass:1 fail:0 xfail:1 xpass:0 skip:3 error:0
"""

FAILED = """KTAP version 1
1..3
ok 1 ping.test_v4
# Exception| Traceback (most recent call last):
# Exception|   File "/opt/ksrc/tools/testing/selftests/net/lib/py/ksft.py", line 218, in ksft_run
# Exception|     case(*args)
# Exception| lib.py.utils.CmdExitFailure: Command failed: ping -c 1 -W0.5 fd00:9::2
not ok 2 ping.test_v6
# Check| At /opt/ksrc/tools/testing/selftests/drivers/net/ping.py, line 37, in test_tcp:
# Check|     ksft_eq(nc.stdout.strip(), "ping")
# Check failed  != ping
not ok 3 ping.test_tcp
# Totals: pass:1 fail:2 xfail:0 xpass:0 skip:0 error:0
"""


class Parse(unittest.TestCase):
    def test_cases_directives_totals(self):
        r = ktap.parse(STATS)
        self.assertEqual((r.version, r.plan), (1, 5))
        self.assertEqual([c.num for c in r.cases], [1, 2, 3, 4, 5])
        self.assertEqual(r.cases[1].directive, "XFAIL")
        self.assertEqual(r.cases[1].reason, "FEC not supported by the device")
        self.assertEqual(r.cases[2].directive, "SKIP")
        self.assertEqual(r.totals["skip"], 3)
        self.assertEqual(r.other, ["[   31.123456] r8169 0000:01:00.0 eth0: Link is Down"])

    def test_comments_belong_to_the_next_result(self):
        r = ktap.parse(FAILED)
        self.assertEqual(r.cases[0].comments, [])
        self.assertIn("Exception| lib.py.utils.CmdExitFailure: Command failed: ping -c 1 "
                      "-W0.5 fd00:9::2", r.cases[1].comments)
        self.assertTrue(r.cases[1].failed and r.cases[2].failed)

    def test_nested_runner_output(self):
        r = ktap.parse("TAP version 13\n1..1\n# KTAP version 1\n# 1..1\n# ok 1 x.y\n"
                       "ok 1 selftests: drivers/net: x.py\n")
        self.assertEqual(r.plan, 1)
        self.assertEqual(r.cases[0].name, "x.y")


class Judge(unittest.TestCase):
    def test_pass_names_what_was_skipped(self):
        v = ktap.judge(STATS, 0)
        self.assertEqual(v.status, "PASS")
        self.assertEqual(v.counts, {"pass": 1, "fail": 0, "xfail": 1, "skip": 3})
        self.assertIn("pkt_byte_sum: SKIP qstats not supported by the device", v.reason)
        self.assertIn("check_fec: XFAIL FEC not supported by the device", v.reason)

    def test_fail_names_each_failed_case_and_its_cause(self):
        v = ktap.judge(FAILED, 1)
        self.assertEqual(v.status, "FAIL")
        self.assertIn("2 of 3 cases failed", v.reason)
        self.assertIn("test_v6: lib.py.utils.CmdExitFailure: Command failed: ping -c 1 "
                      "-W0.5 fd00:9::2", v.reason)
        self.assertIn("test_tcp: Check failed  != ping", v.reason)

    def test_every_case_skipped_is_skip(self):
        v = ktap.judge("KTAP version 1\n1..2\nok 1 s.a # SKIP shapers not supported by the "
                       "device\nok 2 s.b # SKIP shapers not supported by the device\n", 4)
        self.assertEqual(v.status, "SKIP")
        self.assertIn("a: SKIP shapers not supported by the device", v.reason)
        v = ktap.judge("KTAP version 1\n1..0 # SKIP no remote\n", 4)
        self.assertEqual((v.status, v.reason), ("SKIP", "no remote"))

    def test_killed_at_the_limit_is_timeout(self):
        v = ktap.judge("KTAP version 1\n1..3\nok 1 q.a\n# waiting\n", 137, timed_out=True,
                       limit_s=45)
        self.assertEqual(v.status, "TIMEOUT")
        self.assertEqual(v.reason, "killed at its limit of 45 s after 1 of 3 cases; "
                         "last line: waiting")

    def test_never_ended(self):
        v = ktap.judge("KTAP version 1\n1..2\n", None)
        self.assertEqual(v.status, "TIMEOUT")
        self.assertIn("never ended", v.reason)

    def test_crash_before_ktap_is_fail_with_the_last_line(self):
        out = ("Traceback (most recent call last):\n  File \"./stats.py\", line 8\n"
               "ModuleNotFoundError: No module named 'yaml'\n")
        v = ktap.judge(out, 1)
        self.assertEqual(v.status, "FAIL")
        self.assertEqual(v.reason, "no KTAP output (exit 1): ModuleNotFoundError: No module "
                         "named 'yaml'")

    def test_stopped_before_the_plan_or_bad_exit(self):
        self.assertEqual(ktap.judge("KTAP version 1\n1..3\nok 1 a.b\n", 1).status, "FAIL")
        v = ktap.judge("KTAP version 1\n1..1\nok 1 a.b\n", 1)
        self.assertEqual(v.status, "FAIL")
        self.assertIn("exit 1 although no case failed", v.reason)
        self.assertEqual(ktap.judge("KTAP version 1\n1..1\nok 1 a.b\n", 0).status, "PASS")


PAUSE = """KTAP version 1
1..2
# Check| At stats.py, line 29, in check_pause:
# Check failed {} does not eval to True driver does not report stats
not ok 1 stats.check_pause
ok 2 stats.check_fec # XFAIL FEC not supported by the device
"""


class Lacks(unittest.TestCase):
    def test_a_known_lack_is_a_skip_with_its_reason(self):
        v = ktap.judge(PAUSE, 1, lacks={"stats.check_pause": ("no pause stats",
                                                              "does not report stats")})
        self.assertEqual(v.status, "SKIP")
        self.assertIn("check_pause: SKIP no pause stats (the test failed: Check failed {} does "
                      "not eval to True driver does not report stats)", v.reason)

    def test_other_failures_still_fail(self):
        self.assertEqual(ktap.judge(PAUSE, 1).status, "FAIL")
        v = ktap.judge(PAUSE.replace("ok 2 stats.check_fec # XFAIL FEC not supported by the "
                                     "device", "not ok 2 stats.check_fec"), 1,
                       lacks={"stats.check_pause": ("no pause stats",
                                                    "does not report stats")})
        self.assertEqual(v.status, "FAIL")
        self.assertIn("1 of 2 cases failed: check_fec", v.reason)


    def test_a_lacking_case_failing_another_way_still_fails(self):
        v = ktap.judge(PAUSE, 1, lacks={"stats.check_pause": ("no pause stats",
                                                              "Operation not supported")})
        self.assertEqual(v.status, "FAIL")
        self.assertIn("check_pause: Check failed", v.reason)

    def test_colour_sequences_are_no_part_of_a_result(self):
        coloured = ("TAP version 13\n1..2\n\x1b[32mok 1 ping.test_default_v4\x1b[0m\r\n"
                    "\x1b[33mok 2 ping.test_xdp_offload # SKIP no offloaded XDP\x1b[0m\r\n")
        v = ktap.judge(coloured, 0)
        self.assertEqual(v.status, "PASS")
        self.assertEqual(v.counts.get("pass"), 1)
        self.assertIn("test_xdp_offload: SKIP no offloaded XDP", v.reason)


class Closure(unittest.TestCase):
    ARCHIVE = {
        "python3.11-minimal": "Package: python3.11-minimal\nVersion: 3.11.2-6\n"
                              "Depends: libpython3.11-minimal (= 3.11.2-6), zlib1g (>= 1:1.2)\n"
                              "Pre-Depends: libc6 (>= 2.35)\n",
        "libpython3.11-minimal": "Package: libpython3.11-minimal\nVersion: 3.11.2-6\n"
                                 "Depends: libc6, tzdata\n",
        "zlib1g": "Package: zlib1g\nVersion: 1:1.2.13\nDepends: libc6\n",
        "libc6": "Package: libc6\nVersion: 2.36-9\nDepends: libgcc-s1\n",
        "libgcc-s1": "Package: libgcc-s1\nVersion: 12.2.0\nDepends: gcc-12-base, libc6\n",
        "gcc-12-base": "Package: gcc-12-base\nVersion: 12.2.0\n",
        "iproute2": "Package: iproute2\nVersion: 6.1.0-3\nDepends: debconf (>= 0.5) | "
                    "debconf-2.0, libmnl0 [amd64], libfoo | libmnl0\n",
        "libmnl0": "Package: libmnl0\nVersion: 1.0.4-3\nDepends: libc6\n",
        "python3-yaml": "Package: python3-yaml\nVersion: 6.0-3\nDepends: python3:any\n",
        "python3": "Package: python3\nVersion: 3.11.2-1\n",
        "tzdata": "Package: tzdata\nVersion: 2024a\nDepends: debconf\n",
    }

    def show(self, names):
        self.calls.append(list(names))
        return "\n".join(self.ARCHIVE[n] for n in names if n in self.ARCHIVE)

    def setUp(self):
        self.calls = []

    def test_closure_follows_depends_and_stops_at_the_excluded(self):
        got = debpkgs.closure(["python3.11-minimal", "iproute2", "python3-yaml"], self.show)
        self.assertEqual(got, {"gcc-12-base": "12.2.0", "iproute2": "6.1.0-3",
                               "libc6": "2.36-9", "libgcc-s1": "12.2.0",
                               "libmnl0": "1.0.4-3", "libpython3.11-minimal": "3.11.2-6",
                               "python3": "3.11.2-1", "python3-yaml": "6.0-3",
                               "python3.11-minimal": "3.11.2-6", "zlib1g": "1:1.2.13"})
        # one apt-cache run per dependency level, never one per package
        self.assertLessEqual(len(self.calls), 5)

    def test_unknown_root_is_one_line(self):
        with self.assertRaises(HarnessError) as cm:
            debpkgs.closure(["no-such-package"], self.show)
        self.assertIn("no candidate for package 'no-such-package'", str(cm.exception))

    def test_parse_depends(self):
        self.assertEqual(debpkgs.parse_depends("a (>= 1), b | c:any, d [amd64] <!nocheck>"),
                         [["a"], ["b", "c"], ["d"]])

    def test_key_is_the_set_of_versions(self):
        self.assertEqual(debpkgs.key({"a": "1", "b": "2"}), debpkgs.key({"b": "2", "a": "1"}))
        self.assertNotEqual(debpkgs.key({"a": "1"}), debpkgs.key({"a": "2"}))


class ClosureCached(unittest.TestCase):
    """closure_cached: remembered while apt's lists stay, recomputed from one apt-cache run
    when they change, afresh only when a package gained a dependency."""
    ROOTS = ["python3.11-minimal", "iproute2", "python3-yaml"]

    def setUp(self):
        self.archive = dict(Closure.ARCHIVE)
        self.calls, self.state = [], "lists-1"
        self.tmp = tempfile.TemporaryDirectory()
        self.cache = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def show(self, names):
        self.calls.append(list(names))
        return "\n".join(self.archive[n] for n in names if n in self.archive)

    def cached(self):
        self.calls = []
        return debpkgs.closure_cached(self.ROOTS, self.cache, self.show, lambda: self.state)

    def fresh(self):
        return debpkgs.closure(self.ROOTS, lambda names: "\n".join(
            self.archive[n] for n in names if n in self.archive))

    def test_same_lists_ask_apt_nothing(self):
        first = self.cached()
        self.assertGreater(len(self.calls), 1)
        self.assertEqual(self.cached(), first)
        self.assertEqual(self.calls, [])

    def test_new_lists_same_packages_is_one_apt_run(self):
        first = self.cached()
        self.state = "lists-2"
        self.assertEqual(self.cached(), first)
        self.assertEqual(len(self.calls), 1)
        self.cached()
        self.assertEqual(self.calls, [], "the new lists' state is remembered")

    def after_update(self, **stanzas):
        """The closure once, then apt-get update brings `stanzas` ({package: text}): the
        closure again, which must be what a fresh computation gives."""
        self.cached()
        self.state = "lists-2"
        self.archive.update({k.replace("_", "-"): v for k, v in stanzas.items()})
        got = self.cached()
        self.assertEqual(got, self.fresh())
        return got

    def test_a_new_version_is_seen(self):
        got = self.after_update(zlib1g="Package: zlib1g\nVersion: 1:1.3\nDepends: libc6\n")
        self.assertEqual(got["zlib1g"], "1:1.3")
        self.assertEqual(len(self.calls), 1)

    def test_an_alternative_that_appears_is_picked(self):
        # iproute2 depends on "libfoo | libmnl0": libfoo had no candidate, now it has one
        self.assertNotIn("libfoo", self.cached())
        got = self.after_update(libfoo="Package: libfoo\nVersion: 2\n")
        self.assertEqual(got["libfoo"], "2")
        self.assertEqual(len(self.calls), 1)

    def test_a_new_dependency_computes_afresh(self):
        got = self.after_update(
            libc6="Package: libc6\nVersion: 2.36-10\nDepends: libgcc-s1, libnew\n",
            libnew="Package: libnew\nVersion: 1\n")
        self.assertEqual(got["libnew"], "1")
        self.assertGreater(len(self.calls), 1)

    def test_a_damaged_file_is_computed_again(self):
        first = self.cached()
        f = next((self.cache / "debpkgs").glob("closure-roots-*.txt"))
        f.write_text("libc6=2.36-9\n")
        self.assertEqual(self.cached(), first)
        self.assertGreater(len(self.calls), 1)


if __name__ == "__main__":
    unittest.main()
