# SPDX-License-Identifier: GPL-2.0-or-later
"""The matrix: every guest scenario and every lab episode, each with the verdict a correct
driver must get, and --shard i/n (a deterministic partition of the sorted matrix).

Guest scenarios (scripts/run-guest, guest-tests/scenarios/<name>.sh) must PASS. They test r8169
by name (its log lines, its module), so they are in the matrix of r8169 drivers only.
Lab episodes (scripts/run-lab via the episode modules of scripts/repro/) must give, for every
case, the verdict the episode expects of a driver carrying every fix: for r8169 its "stock"
cases, for rtl8168sim its "fixed" cases. On top of that, the episode's throughput/latency
figures must stay within a tolerance of the stored baseline of the stock r8169
(baselines.json next to this file; the lab is deterministic, so a drop is the driver's)."""
import json
import os
import re
from pathlib import Path

from .errors import BadInput

HERE = Path(__file__).resolve().parent
BASELINES = HERE / "baselines.json"

# name -> (kind, run-guest timeout s or episode module); wall timeouts are generous backstops
GUEST = {
    "faults": 420,  # every fault class in one boot; one RESULT line per class
    "smoke": 210,
    "offloads": 390,
    "link-flap": 210,
    "migrate": 270,
    "hostile": 270,
    "reconfig": 330,  # MTU/ethtool -C -A -s -K/ifdown changed under traffic, driver reloaded
}
LAB = {
    "txpoll-stall": "txpoll_stall",
    "msi-lost-irq": "msi_lost_irq",
    "dma-burst": "dma_burst",
    "offload-latency": "offload_latency",
    "frames": "frames",  # a check, not an episode: full-size/jumbo receive
    "dma-after-close": "dma_after_close",  # always behind intel-iommu
    "aspm-l1": "aspm_l1",  # the 8168h's link in ASPM L1 (its case pins the chip)
    # conformance checks, each seen from the other end of the link (repro/conform.py)
    "ipv6": "ipv6",      # IPv6 both ways, TX checksum offload + TSO6 on and off
    "vlan": "vlan",      # 802.1Q tag insertion/stripping on and off, the tag read at the other end
    "rx-bad": "rx_bad",  # frames with wrong checksums never reach a socket, the stack counts them
    "rx-filter": "rx_filter",  # unicast/multicast filter and promiscuous mode
    # the driver's limits: its TX ring full (BQL raised), its NAPI budget used up by a flood
    "tx-ring-full": "tx_ring_full",
    "rx-flood": "rx_flood",
    # power management: suspend to RAM under traffic, runtime PM and its wake events (PME)
    "suspend": "suspend",
    "runtime-pm": "runtime_pm",
}
# lab entries whose episode has no "fixed" (rtl8168sim) case: r8169 drivers only
R8169_ONLY_LAB = {"dma-after-close", "ipv6", "vlan", "rx-bad", "rx-filter", "tx-ring-full",
                  "rx-flood", "suspend", "runtime-pm"}
# lab entries that always run behind intel-iommu: not for kernels built from guest.config,
# which leaves the IOMMU out (scripts/bisect --kernel-tree)
IOMMU_ONLY_LAB = {"dma-after-close"}
# lab entries a kernel built from guest.config cannot run (tinyconfig leaves the option off),
# with what it lacks: scripts/bisect --kernel-tree leaves them out
NOT_ON_GUEST_CONFIG = {**{n: "an IOMMU" for n in IOMMU_ONLY_LAB},
                       "aspm-l1": "CONFIG_PCIEASPM (the guest's ASPM policy)",
                       "ipv6": "CONFIG_IPV6",
                       "rx-bad": "CONFIG_IPV6 (its IPv6 classes)",
                       "rx-filter": "CONFIG_IP_MULTICAST (the joined group)",
                       "vlan": "CONFIG_VLAN_8021Q (the 8021q module)",
                       "tx-ring-full": "CONFIG_BQL (its sysfs limits)",
                       "rx-flood": "CONFIG_NET_PKTGEN (the partner's flood)",
                       "suspend": "CONFIG_PM_DEBUG (the kernel's pm_test hook)",
                       "runtime-pm": "CONFIG_PM (runtime power management)"}
# the kernel option each of those entries needs: a kernel built from guest.config (a kernel
# tree, the debug kernel X.Y-debug) runs the entry only if its .config has it (kernel_lacks);
# Debian's kernels have them all
NEEDS_OPTION = {"dma-after-close": "CONFIG_INTEL_IOMMU", "aspm-l1": "CONFIG_PCIEASPM",
                "ipv6": "CONFIG_IPV6", "rx-bad": "CONFIG_IPV6",
                "rx-filter": "CONFIG_IP_MULTICAST", "vlan": "CONFIG_VLAN_8021Q",
                "tx-ring-full": "CONFIG_BQL", "rx-flood": "CONFIG_NET_PKTGEN",
                "suspend": "CONFIG_PM_DEBUG", "runtime-pm": "CONFIG_PM"}
# the kernel's own drivers/net selftests (regress_lib/selftests.py): one lab boot, one result
# per test program (selftests.<test>). Opt-in: not in the default run nor in "all" (it takes
# minutes on the 2-core machines; docs/REGRESS.md), r8169 drivers only
SELFTESTS = {"selftests"}
# entries not yet through 10 passing runs in a row (docs/REGRESS.md): run only when named, not
# in the default run, "all" or a group, so CI does not gate on them yet
NEW: set[str] = set()
OPT_IN = SELFTESTS | NEW
GROUPS = {"all": None, "guest": sorted(GUEST), "lab": sorted(LAB)}

# Kernel splats (scripts/lablib/splat.py): every console log of every entry is scanned and any
# splat FAILs the entry (its first line is the reason), except the kinds an entry provokes on
# purpose with a correct driver, declared here (entry -> splat.KINDS). The faults scenario's
# dma-write and tx-stop-fetch classes stop the TX engine and need the driver's TX watchdog to
# recover, so dev_watchdog's report is part of a pass (the scenario checks it ran, and judges
# every other splat of a class itself). No other entry times out TX with the stock r8169:
# txpoll-stall's lost doorbell and aspm-l1's link in L1 are the regressions they catch, and
# there a TX timeout is a failure.
EXPECTED_SPLATS = {
    "faults": ("tx-timeout",),
}

# What a lab entry means under --chip NAME (a chip other than the one its case runs on by
# default): the DUT is that chip, the partner stays the case's, and the stock r8169 must get
# the verdicts of a driver with every fix. Printed by --list --chip and in docs/REGRESS.md;
# an entry whose episode module lists CHIPS without NAME is "not applicable" (left out, named).
ON_OTHER_CHIP = {
    "aspm-l1": "only the 8168h models ASPM L1 (the episode's CHIPS): on another chip not "
               "applicable, left out; on the 8168h the driver must not let the link into L1 "
               "(no TX timeout, no L1 entry)",
    "dma-after-close": "the DUT is the chip with x-pme=on in place of the case's 8168evl (r8169's "
                       "close path with Wake-on-LAN is the same code on every chip that has it): "
                       "no IOMMU DMA fault",
    "dma-burst": "r8169 CLEAN (monotonic, within 2 % of the bench run with --param chip=NAME), "
                 "plus the 2012 sawtooth with the DUT's burst forced to 1024 B (tx-mxdma=6): "
                 "REPRODUCED at 1076 = 1024 + 52; the line rate is the chip's link speed (the "
                 "chip list's link_mbps: 2500 on the 8125b, whose MTU-1500 targets are then the "
                 "bench's, not the 8168's 1 Gbit/s history)",
    "frames": "the largest MTU both NICs take (the partner stays an 8168c)",
    "ipv6": "the same checks: every chip the model lists takes the v2 descriptor's IPv6 "
            "checksum and TSO6 requests (r8169 offers them from VER_18 on)",
    "rx-bad": "the same checks: the chip's RX checksum flags (IPF/UDPF/TCPF) on every chip",
    "rx-filter": "the same checks: RxConfig and the MAR0-7 hash filter on every chip (the "
                 "8168evl also compares the ExGMAC copy of its address)",
    "vlan": "the same checks: the chip's tag insertion and stripping (CPlusCmd RxVlan, the "
            "descriptor's TxVlanTag) on every chip",
    "tx-ring-full": "the same checks: the DUT's TX ring full with BQL raised, on every chip",
    "rx-flood": "the same checks: the DUT's NAPI budget used up by a pktgen flood, on every chip",
    "suspend": "the same checks; the magic-packet bit r8169 writes is checked in Config3 on "
               "the 8168c only (later chips keep it in ERI 0xdc or MAC OCP, which ethtool -d "
               "does not show: runtime-pm checks it by its effect)",
    "runtime-pm": "the same checks: each chip's wake registers as r8169 arms them "
                  "(model/src/wake.h: the magic packet in Config3, ERI 0xdc or MAC OCP 0xc0b6)",
    "msi-lost-irq": "r8169 with MSI on the chip: CLEAN, no interrupt hang (IntrStatus/IntrMask "
                    "read where the chip list says: 0x3c/0x38 on the 8125b, which r8169 drives "
                    "through MSI-X with one vector)",
    "offload-latency": "[r8169-defaults] expects what r8169's defaults on the chip are: "
                       "REPRODUCED with SG/TSO off, CLEAN where r8169 turns them on itself "
                       "(7.2 on the 8168h)",
    "txpoll-stall": "the lossy-txpoll quirk only where the chip's profile has it (8168c, "
                    "8168evl: not the 8168h); elsewhere r8169's request/response TX path, CLEAN",
}


def names_for(module_name: str) -> list:
    if module_name == "rtl8168sim":
        return sorted(set(LAB) - R8169_ONLY_LAB)
    return sorted(list(GUEST) + list(LAB) + list(SELFTESTS))


def kind(name: str) -> str:
    """guest, lab or selftests (the entry and its per-test results selftests.<test>)."""
    if name in GUEST:
        return "guest"
    if name.split(".", 1)[0] in SELFTESTS:
        return "selftests"
    return "lab"


def select(spec: str | None, module_name: str) -> list:
    """--scenarios LIST (comma-separated names or groups all, guest, lab) -> sorted names."""
    avail = names_for(module_name)
    default = [n for n in avail if n not in OPT_IN]
    if not spec:
        return default
    want = []
    for item in [s.strip() for s in spec.split(",")]:
        if not item:
            continue
        if item in GROUPS:
            want += default if GROUPS[item] is None else [n for n in GROUPS[item]
                                                          if n in avail and n not in OPT_IN]
        elif item in avail:
            want.append(item)
        elif (item in GUEST or item in R8169_ONLY_LAB or item in SELFTESTS) \
                and module_name == "rtl8168sim":
            raise BadInput(f"scenario '{item}' tests r8169 by name and does not apply to "
                           f"rtl8168sim (its matrix: {', '.join(avail)})")
        else:
            raise BadInput(f"unknown scenario '{item}' (known: "
                           f"{', '.join(names_for('r8169'))}; groups: {', '.join(GROUPS)})")
    if not want:
        raise BadInput("--scenarios selects nothing")
    return sorted(set(want))


def parse_shard(text: str) -> tuple:
    m = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", text or "")
    if not m:
        raise BadInput(f"--shard '{text}': expected i/n, e.g. 1/3")
    i, n = int(m.group(1)), int(m.group(2))
    if n < 1 or not 1 <= i <= n:
        raise BadInput(f"--shard {text}: need 1 <= i <= n")
    return i, n


def shard(names: list, i: int, n: int) -> list:
    """Entry k (0-based) of the sorted matrix belongs to shard (k mod n) + 1: the n shards
    together run every entry exactly once, whatever n is."""
    return [x for k, x in enumerate(sorted(names)) if k % n == i - 1]


# ---- baselines ------------------------------------------------------------------------------

def load_baselines(path: str | Path | None = None) -> dict:
    p = Path(path or os.environ.get("RTL8168_REGRESS_BASELINES") or BASELINES)
    if not p.is_file():
        return {}
    try:
        return json.loads(p.read_text())
    except ValueError as e:
        raise BadInput(f"{p}: not valid JSON ({e})")


def metric_specs() -> dict:
    """metric name -> (episode, higher_is_better, tolerance %).

    A lab run is deterministic for given inputs, but any input change (the module's code
    layout, a lab case script, the image) moves the guest's timing a little. Measured spread of
    the stock r8169 over such changes (docs/REGRESS.md): the wire-bound TCP_STREAM points
    < 0.1 %, the offloaded stream ~0.5 %, txpoll-stall's request/response ~0.3 %, the 4-stream
    MSI case ~2.5 %, TCP_RR with the default offloads (every 64 KiB segmented in software) up
    to ~5 %. Tolerances: TCP_STREAM 3 % (the issue's figure), the rest above their spread."""
    return {
        "dma-burst.tcp_stream_mbps_1500": ("dma-burst", True, 3.0),
        "dma-burst.tcp_stream_mbps_1076": ("dma-burst", True, 3.0),
        "txpoll-stall.rr_mbps": ("txpoll-stall", True, 5.0),
        "msi-lost-irq.recv_mbps": ("msi-lost-irq", True, 10.0),
        "offload-latency.rr_mean_us_default": ("offload-latency", False, 10.0),
        "offload-latency.rr_mean_us_offloads": ("offload-latency", False, 5.0),
        "offload-latency.stream_mbps_offloads": ("offload-latency", True, 3.0),
    }


def applies_to_chip(name: str, chip: str | None) -> bool:
    """Whether entry `name` runs under --chip `chip`: guest scenarios on every chip, a lab
    entry unless its episode module lists CHIPS without it (repro.common.applies_to_chip)."""
    if chip is None or kind(name) != "lab":
        return True
    import importlib
    from repro import common
    return common.applies_to_chip(importlib.import_module(f"repro.{LAB[name]}"), chip)


def kernel_lacks(names: list, kconfig: str | Path | None) -> dict:
    """{entry: why} for the entries the kernel of .config file `kconfig` cannot run (an option
    of NEEDS_OPTION it does not set); {} when there is no such file (a Debian kernel)."""
    if not kconfig or not Path(kconfig).is_file():
        return {}
    text = Path(kconfig).read_text(errors="replace")
    out = {}
    for nm in names:
        opt = NEEDS_OPTION.get(nm)
        if opt and not re.search(rf"^{opt}=[ym]$", text, re.M):
            out[nm] = f"the kernel lacks {NOT_ON_GUEST_CONFIG.get(nm, opt)} ({opt} is not set)"
    return out


def not_applicable(name: str) -> str:
    """Why a lab entry is left out on a chip its episode does not exist on."""
    import importlib
    mod = importlib.import_module(f"repro.{LAB[name]}")
    return f"a defect of the {', '.join(getattr(mod, 'CHIPS', ()))} only (its episode's CHIPS)"


def chip_key(chip: str | None) -> str | None:
    """The baselines' chip for --chip NAME: None (the file's top level) for no --chip and for
    the model's default chip, NAME otherwise."""
    if chip is None:
        return None
    from lablib import chips   # the same import root (docs/ARCHITECTURE.md "Python tooling")
    return None if chip == chips.default_id() else chip


def chip_baselines(baselines: dict, chip: str | None) -> dict:
    """The part of baselines.json for a chip: the top level ("kernels", "measured") for the
    default chip, "chips" -> NAME (the same two keys) for another (chip_key)."""
    key = chip_key(chip)
    return baselines if key is None else ((baselines.get("chips") or {}).get(key) or {})


def compare(kernel: str, metrics: dict, baselines: dict, chip: str | None = None) -> list:
    """[(metric, value, base, delta %, tol %, ok)] for every metric that has a baseline (of
    the chip's: chip_baselines)."""
    base = (chip_baselines(baselines, chip).get("kernels") or {}).get(kernel) or {}
    specs = metric_specs()
    out = []
    for name, value in metrics.items():
        if name not in specs or name not in base or value is None:
            continue
        _, higher, tol = specs[name]
        tol = float((baselines.get("tolerance_pct") or {}).get(name, tol))
        b = float(base[name])
        delta = (value - b) / b * 100.0 if b else 0.0
        ok = delta >= -tol if higher else delta <= tol
        out.append((name, value, b, delta, tol, ok))
    return out


def expected_splats(name: str) -> tuple:
    """The splat kinds entry `name` provokes on purpose (EXPECTED_SPLATS; none by default)."""
    return tuple(EXPECTED_SPLATS.get(name, ()))
