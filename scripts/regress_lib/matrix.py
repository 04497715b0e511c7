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
    "faults": 420,  # every fault class in one boot (issue 18); one RESULT line per class
    "smoke": 210,
    "offloads": 390,
    "link-flap": 210,
    "migrate": 270,
    "hostile": 270,
}
LAB = {
    "txpoll-stall": "txpoll_stall",
    "msi-lost-irq": "msi_lost_irq",
    "dma-burst": "dma_burst",
    "offload-latency": "offload_latency",
    "frames": "frames",  # a check, not an episode: full-size/jumbo receive (issue 18)
    "dma-after-close": "dma_after_close",  # always behind intel-iommu (issue 18)
}
# lab entries whose episode has no "fixed" (rtl8168sim) case: r8169 drivers only
R8169_ONLY_LAB = {"dma-after-close"}
# lab entries that always run behind intel-iommu: not for kernels built from guest.config,
# which leaves the IOMMU out (scripts/bisect --kernel-tree)
IOMMU_ONLY_LAB = {"dma-after-close"}
GROUPS = {"all": None, "guest": sorted(GUEST), "lab": sorted(LAB)}


def names_for(module_name: str) -> list:
    if module_name == "rtl8168sim":
        return sorted(set(LAB) - R8169_ONLY_LAB)
    return sorted(list(GUEST) + list(LAB))


def kind(name: str) -> str:
    return "guest" if name in GUEST else "lab"


def select(spec: str | None, module_name: str) -> list:
    """--scenarios LIST (comma-separated names or groups all, guest, lab) -> sorted names."""
    avail = names_for(module_name)
    if not spec:
        return avail
    want = []
    for item in [s.strip() for s in spec.split(",")]:
        if not item:
            continue
        if item in GROUPS:
            want += avail if GROUPS[item] is None else [n for n in GROUPS[item] if n in avail]
        elif item in avail:
            want.append(item)
        elif (item in GUEST or item in R8169_ONLY_LAB) and module_name == "rtl8168sim":
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


def compare(kernel: str, metrics: dict, baselines: dict) -> list:
    """[(metric, value, base, delta %, tol %, ok)] for every metric that has a baseline."""
    base = (baselines.get("kernels") or {}).get(kernel) or {}
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
