# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/compare-nics' table and JSON: reads back the run-guest output of every run (through
lablib.protocol.parse_report), takes the median of each figure per row, the ratios of the
rtl8168 rows to e1000e and rtl8139 and the target (functional rtl8168 >= e1000e and >= rtl8139
in TX and RX throughput: the emulated NIC must not be the bottleneck of a guest that
could use another).

    python3 -m lablib.compare RUNS_TSV JSON KERNEL BYTES RR_COUNT REPEAT QEMU QEMU_VERSION \\
        LOAD_BEFORE LOAD_AFTER WALL CHECK

RUNS_TSV has one line per run: row, nic, device props, guest append, repeat, exit, run dir.
Prints the table, writes JSON; exit 0, or 3 with CHECK=1 when a target is missed (compare-nics
turns that into 1)."""
import json
import os
import socket
import statistics
import sys
import time
from typing import Optional

from . import protocol

LABELS = {"rtl8168": "rtl8168 (timing=off)", "rtl8168-timed": "rtl8168 (timing=on)",
          "rtl8168-tso": "rtl8168 (off, +SG/TSO)"}


def _num(d: dict, k: str) -> Optional[float]:
    try:
        return float(d[k])
    except (KeyError, ValueError):
        return None


def sample(n: int, rc: int, out_dir: str) -> dict:
    """One run's figures from <out_dir>/run-guest.txt (missing file: no figures)."""
    s = {"repeat": n, "exit": rc, "out": out_dir, "verdict": None}
    try:
        with open(os.path.join(out_dir, "run-guest.txt")) as fh:
            text = fh.read()
    except OSError:
        text = ""
    rep = protocol.parse_report(text)
    host = {}
    for role in ("sink", "source"):
        if role in rep.peers:
            try:
                conns = json.loads(rep.peers[role]).get("connections") or [{}]
                host[role] = conns[0].get("mbps")
            except ValueError:
                pass
    for line in rep.guest:
        if line.startswith("GUEST kernel="):
            s["guest_kernel"] = protocol.parse_kv(line).get("kernel")
    for line in rep.results:
        f = protocol.parse_kv(line)
        if line.startswith("RESULT scenario=throughput features "):
            s["features"] = {k: f.get(k) for k in ("sg", "tx", "tso")}
        elif line.startswith("RESULT scenario=throughput dir="):
            if f.get("status") != "ok":
                continue
            if f["dir"] in ("tx", "rx"):
                s[f["dir"]] = {"mbps": _num(f, "mbps"), "bytes": int(f["bytes"]),
                               "ns": int(f["ns"])}
            elif f["dir"] == "rr":
                s["rr"] = {"transactions": int(f["transactions"]), "tps": _num(f, "tps"),
                           "mean_ns": _num(f, "mean_ns"), "stddev_ns": _num(f, "stddev_ns"),
                           "min_ns": _num(f, "min_ns"), "p50_ns": _num(f, "p50_ns"),
                           "p99_ns": _num(f, "p99_ns"), "max_ns": _num(f, "max_ns")}
    if rep.verdict is not None:
        s["verdict"] = rep.verdict_line
        s["wall_seconds"] = rep.verdict.wall_s if rep.has_wall else None
    # the same transfers timed on the host by rtl8168-peer (wall clock, for reference)
    for d, role in (("tx", "sink"), ("rx", "source")):
        if d in s and role in host:
            s[d]["host_mbps"] = host[role]
    return s


def read_runs(tsv: str) -> tuple:
    """(runs by row, row order) from compare-nics' runs.tsv."""
    runs, order = {}, []
    with open(tsv) as fh:
        for line in fh:
            row, nic, props, extra, n, rc, d = line.rstrip("\n").split("\t")
            if row not in runs:
                runs[row] = {"row": row, "nic": nic, "device_props": props,
                             "guest_append": extra, "runs": []}
                order.append(row)
            runs[row]["runs"].append(sample(int(n), int(rc), d))
    return runs, order


def _med(vals: list) -> Optional[float]:
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def _ratio(a: Optional[float], b: Optional[float]) -> Optional[float]:
    return a / b if a is not None and b else None


def summarize(runs: dict, order: list) -> tuple:
    """Adds each row's median and ok_runs; returns (ratios, targets, all targets met)."""
    for row in order:
        r = runs[row]
        s = r["runs"]
        r["median"] = {
            "tx_mbps": _med([x.get("tx", {}).get("mbps") for x in s]),
            "rx_mbps": _med([x.get("rx", {}).get("mbps") for x in s]),
            "rr_mean_ns": _med([x.get("rr", {}).get("mean_ns") for x in s]),
            "rr_stddev_ns": _med([x.get("rr", {}).get("stddev_ns") for x in s]),
            "rr_tps": _med([x.get("rr", {}).get("tps") for x in s]),
        }
        r["ok_runs"] = sum(1 for x in s if x["exit"] == 0)
    ratios = {}
    for num_row in ("rtl8168", "rtl8168-timed", "rtl8168-tso"):
        if num_row not in runs:
            continue
        for den in ("e1000e", "rtl8139"):
            if den not in runs:
                continue
            a, b = runs[num_row]["median"], runs[den]["median"]
            ratios[f"{num_row}/{den}"] = {
                "tx": _ratio(a["tx_mbps"], b["tx_mbps"]),
                "rx": _ratio(a["rx_mbps"], b["rx_mbps"]),
                "rr_tps": _ratio(a["rr_tps"], b["rr_tps"]),
            }
    # Target: functional-mode rtl8168 >= e1000e and >= rtl8139, TX and RX
    targets = {}
    for den in ("e1000e", "rtl8139"):
        key = f"rtl8168/{den}"
        if key in ratios:
            for d in ("tx", "rx"):
                v = ratios[key][d]
                targets[f"{key} {d}"] = {"ratio": v, "met": v is not None and v >= 1.0}
    return ratios, targets, bool(targets) and all(t["met"] for t in targets.values())


def _f1(v: Optional[float], scale: float = 1.0, fmt: str = "{:.1f}") -> str:
    return fmt.format(v / scale) if v is not None else "-"


def _feat(r: dict) -> str:
    """The SG/TSO state in force in the guest (first run that reported it)."""
    for x in r["runs"]:
        if "features" in x:
            return f"{x['features'].get('sg') or '?'}/{x['features'].get('tso') or '?'}"
    return "-"


def table(runs: dict, order: list, ratios: dict, targets: dict, all_met: bool, kernel: str,
          nbytes: str, rr_count: str, repeat: str, load_before: str, load_after: str,
          wall: str) -> str:
    out = [""]
    rep = int(repeat)
    out.append(f"compare-nics: kernel {kernel}, TCG -smp 1, -netdev user, {nbytes} per stream, "
               f"{rr_count} x 1/1-byte TCP_RR, "
               f"{'median of ' + repeat + ' runs' if rep > 1 else '1 run'} per row")
    hdr = (f"{'NIC':<22} {'TX Mbit/s':>10} {'RX Mbit/s':>10} {'RR mean us':>11} "
           f"{'RR sd us':>9} {'RR trans/s':>11}  runs ok  SG/TSO")
    out.append(hdr)
    out.append("-" * len(hdr))
    for row in order:
        m = runs[row]["median"]
        out.append(f"{LABELS.get(row, row):<22} {_f1(m['tx_mbps']):>10} {_f1(m['rx_mbps']):>10} "
                   f"{_f1(m['rr_mean_ns'], 1000):>11} {_f1(m['rr_stddev_ns'], 1000):>9} "
                   f"{_f1(m['rr_tps']):>11}  "
                   f"{runs[row]['ok_runs']}/{len(runs[row]['runs'])}{'':5}  {_feat(runs[row])}")
    if ratios:
        out.append("")
        out.append(f"{'ratio':<22} {'TX':>10} {'RX':>10} {'RR trans/s':>11}")
        for k, v in ratios.items():
            out.append(f"{k:<22} {_f1(v['tx'], fmt='{:.2f}'):>10} "
                       f"{_f1(v['rx'], fmt='{:.2f}'):>10} {_f1(v['rr_tps'], fmt='{:.2f}'):>11}")
    out.append("")
    if targets:
        missed = [f"{k} {_f1(t['ratio'], fmt='{:.2f}')}" for k, t in targets.items()
                  if not t["met"]]
        out.append("target functional rtl8168 >= e1000e and >= rtl8139, TX and RX (ratio >= "
                   "1.0): " + ("MET" if all_met else "NOT MET (" + ", ".join(missed) + ")"))
    else:
        out.append("target: not evaluated (needs the rtl8168 row and e1000e and/or rtl8139 "
                   "rows with numbers)")
    out.append(f"load average before {load_before}, after {load_after}; wall {wall} s")
    return "\n".join(out)


def main(argv: list) -> int:
    (tsv, json_path, kernel, nbytes, rr_count, repeat, qemu, qemu_version,
     load_before, load_after, wall, check) = argv
    runs, order = read_runs(tsv)
    ratios, targets, all_met = summarize(runs, order)
    print(table(runs, order, ratios, targets, all_met, kernel, nbytes, rr_count, repeat,
                load_before, load_after, wall))
    doc = {
        "tool": "compare-nics",
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "host": socket.gethostname(),
        "kernel": kernel,
        "qemu": qemu,
        "qemu_version": qemu_version,
        "setup": {"accel": "tcg", "smp": 1, "net": "user", "machine": "q35",
                  "stream_bytes": nbytes, "rr_transactions": int(rr_count), "rr_request": 1,
                  "rr_response": 1, "repeat": int(repeat),
                  "clock": "guest CLOCK_MONOTONIC (rtl-traffic)"},
        "load_average_before": load_before,
        "load_average_after": load_after,
        "wall_seconds": int(wall),
        "rows": [runs[r] for r in order],
        "ratios": ratios,
        "targets": targets,
        "targets_met": all_met if targets else None,
    }
    tmp = json_path + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(doc, fh, indent=2)
        fh.write("\n")
    os.replace(tmp, json_path)
    print(f"JSON: {json_path}")
    return 3 if check == "1" and not all_met else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
