# SPDX-License-Identifier: GPL-2.0-or-later
"""The planted regressions as tests (CTest label `plants`, docs/REGRESS.md "Planted:
conformance"): each plant of plants/ must FAIL the entry meant to catch it, with a reason that
names the cause, and the stock r8169 must PASS those entries.

  python3 scripts/regress_lib/plant_check.py --kernel 6.1 PLANT.patch | stock [--chip NAME]

PLANT runs `scripts/regress --driver plants/PLANT --scenarios ENTRY` and passes when the entry
FAILs (not TIMEOUT or ERROR) and its reason matches the plant's pattern; `stock` runs every
plant's entry with the stock driver and passes when each PASSes. Exit 0 pass, 1 fail, 2 bad
input. Prints the regress verdict lines and one "PLANT PASS|FAIL <plant> <why>" line."""
import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REGRESS = HERE.parent / "regress"
sys.path.insert(0, str(HERE.parent))   # scripts/, the import root, when run by its path
from lablib import kernelpkg  # noqa: E402

# plant -> (the entry that must catch it, a pattern its FAIL reason must match)
PLANTS = {
    "r8169-rx-csum-ignore-fail.patch": (
        "rx-bad", r"frames with a wrong checksum reached the DUT's socket \(.*\): the stack "
                  r"never checked them .*the driver marked them verified, CHECKSUM_UNNECESSARY"),
    "r8169-rx-crc-uncounted.patch": (
        "rx-bad", r"wire errors, rx-all on: rx_crc_errors \+0 where the chip reported \d+ frames "
                  r"with RxCRC"),
    "r8169-vlan-tag-noswab.patch": ("vlan", r"dut-hw: TCI 0x23a1 \(x\d+\) where 0xa123 was sent"),
    "r8169-tso6-gtsenv4.patch": (
        "ipv6", r"tso/csum on: TCP over IPv6 DUT->partner delivered .*TX frames the chip refused"),
    "r8169-mc-filter-noswab.patch": (
        "rx-filter", r"filter: \d of \d+ frames 'joined' reached the DUT's stack"),
    "r8169-close-keeps-phy.patch": ("reconfig", r"'ifdown' failed \(rc \d+\): .*[Bb]usy"),
    "r8169-ignore-tx-timeout.patch": ("faults", r"classes that did not recover: .*tx-stop-fetch"),
    "r8169-warn-shutdown.patch": ("smoke", r"kernel splat: WARNING: .*rtl_shutdown"),
    "r8169-tx-map-direction.patch": ("smoke", r"kernel splat: .*DMA-API: .*different direction"),
    "r8169-tx-no-wake.patch": ("tx-ring-full", r"NETDEV WATCHDOG|TX timeouts"),
    "r8169-napi-over-budget.patch": ("rx-flood", r"NAPI polls returned more than their budget"),
    "r8169-resume-no-reinit.patch": (
        "suspend", r"no carrier 10 s after resume .*the driver did not bring the device back up"),
    "r8169-runtime-wol-saved.patch": (
        "runtime-pm", r"link: the DUT stayed runtime-suspended .* after its link came back .*"
                      r"no PME for the link-up"),
    "r8169-wol-magic-config5.patch": (
        "runtime-pm", r"magic: the DUT stayed runtime-suspended .* after the magic packet .*no PME"),
}
# plants only a debug kernel (X.Y-debug, docs/KERNELS.md) can see: CONFIG_DMA_API_DEBUG
DEBUG_KERNEL_ONLY = {"r8169-tx-map-direction.patch"}


def plant_file(plant: str, kernel: str) -> Path:
    """plants/PLANT, or plants/X.Y/PLANT when the kernel's series X.Y has a form of its own (the
    code a plant changes differs there: the same change in that series' lines). `latest` is the
    series it names today (what scripts/regress boots), so CTest's plants.*.latest get 7.2's
    forms while unstable's newest kernel is 7.2."""
    try:
        kernel = kernelpkg.image_name(kernel)
    except kernelpkg.LookupError_:
        pass                    # not a Debian kernel name: scripts/regress refuses it
    m = re.match(r"^([0-9]+\.[0-9]+)", kernel)
    if m and (HERE / "plants" / m.group(1) / plant).is_file():
        return HERE / "plants" / m.group(1) / plant
    return HERE / "plants" / plant


def run(driver: str, kernel: str, entries: list, chip: str | None) -> dict:
    """scripts/regress's JSON entries by name (empty when it wrote none)."""
    with tempfile.TemporaryDirectory() as d:
        js = Path(d) / "regress.json"
        cmd = [sys.executable, str(REGRESS), "--driver", driver, "--kernel", kernel,
               "--scenarios", ",".join(entries), "--json", str(js), "--quiet"]
        if chip:
            cmd += ["--chip", chip]
        subprocess.run(cmd, check=False)
        if not js.is_file():
            return {}
        doc = json.loads(js.read_text())
    return {e["name"]: e for e in doc.get("results", [])}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="plant_check.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("plant", help="a file name of plants/ (%s) or stock" % ", ".join(PLANTS))
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--chip")
    a = ap.parse_args(argv)
    debug = bool(re.match(r"^[0-9]+\.[0-9]+-debug$", a.kernel))
    if a.plant == "stock":
        entries = sorted({e for p, (e, _) in PLANTS.items() if debug or p not in DEBUG_KERNEL_ONLY})
        got = run("stock", a.kernel, entries, a.chip)
        bad = [f"{e}: {got[e]['status']} {got[e]['reason']}" if e in got else f"{e}: no result"
               for e in entries if got.get(e, {}).get("status") != "PASS"]
        print(f"PLANT {'FAIL' if bad else 'PASS'} stock "
              + ("; ".join(bad) if bad else f"{', '.join(entries)} PASS"))
        return 1 if bad else 0
    if a.plant not in PLANTS or not (HERE / "plants" / a.plant).is_file():
        print(f"plant_check.py: error: unknown plant '{a.plant}' (known: {', '.join(PLANTS)}, "
              f"stock)", file=sys.stderr)
        return 2
    if a.plant in DEBUG_KERNEL_ONLY and not debug:
        print(f"plant_check.py: error: {a.plant} is seen only by a debug kernel's checkers: "
              f"--kernel X.Y-debug (e.g. 6.12-debug; docs/KERNELS.md)", file=sys.stderr)
        return 2
    entry, pattern = PLANTS[a.plant]
    got = run(str(plant_file(a.plant, a.kernel)), a.kernel, [entry], a.chip).get(entry)
    if not got:
        print(f"PLANT FAIL {a.plant} scripts/regress gave no result for {entry}")
        return 1
    ok = got["status"] == "FAIL" and re.search(pattern, got.get("reason", "")) is not None
    print(f"PLANT {'PASS' if ok else 'FAIL'} {a.plant} {entry} {got['status']}: "
          f"{got.get('reason', '')}" + ("" if ok else f" (expected FAIL matching /{pattern}/)"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
