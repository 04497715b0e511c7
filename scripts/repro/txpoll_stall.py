# SPDX-License-Identifier: GPL-2.0-or-later
"""Episode txpoll-stall (2007, docs/HISTORY.md section 1): lost TxPoll doorbell -> TX stall.

Lab case guest-tests/lab/txpoll.sh: Samba-read-like request/response, the DUT transmits the
64 KiB responses, the partner is a client with a 16 KiB SO_RCVBUF (window-clocked sender).
The model's lossy-txpoll quirk is on (its default): an NPQ write while the TX engine is busy is
ignored. old = rtl8168sim txpoll_rekick=0 (doorbell only in start_xmit), fixed = txpoll_rekick=1
(re-kick from the TX reclaim path), stock = r8169 (carries the "8168 hack").

Verdict (per run):
  REPRODUCED  the request/response flow collapses (a transaction stalled > 1 s, or < 50 Mbit/s)
              and, with rtl8168sim, frames are seen stranded (owned by the NIC with nothing sent
              between two counter samples, or still owned when the client gives up)
  CLEAN       every transaction completed, none slower than 20 ms, >= 100 Mbit/s, and (with
              rtl8168sim) no stranded frame was sampled
  otherwise   UNEXPECTED (the reason says which part did not fit)
"""
from . import common
from .labrun import LabResult

NAME = "txpoll-stall"
DRIVERS = ("old", "fixed", "stock")
# sweep: the client waits (k * 3 us) mod 100 us before its k-th read (guest-tests/lab/txpoll.sh),
# so the window updates that clock the DUT's transmit reach it at every phase of the chip's
# dequeue instead of one phase that the guest's exact instruction stream locks in: without it
# the old driver's stall came and went with unrelated rebuilds of the guest (docs/REPRODUCE.md)
ARGS = {"req": 64, "resp": 65536, "rcvbuf": 16384, "count": 600, "max_ms": 2000, "slow_ms": 20,
        "sweep": "3000:100000"}


def judge(res: LabResult, sim: bool) -> tuple:
    rr = res.result(tool="rr")
    ctr = res.result(what="counters")
    num = common.num
    if not res.ok or not rr:
        return None, {}, f"lab run {res.status}: {res.reason or 'no rr RESULT'}"
    done = num(rr, "transactions", 0)
    mbps = num(rr, "mbps", 0.0)
    stalled = num(rr, "stalled", 0)
    slow = num(rr, "slow", 0)
    fig = {"transactions": f"{done}/{ARGS['count']}", "mbps": mbps, "stalled": stalled}
    if not stalled:
        fig["max_ms"] = round(num(rr, "max_us", 0.0) / 1000, 2)
    stranded = False
    if sim:
        owned_end = num(ctr, "nic_owned_at_end", 0) or 0
        stuck = num(ctr, "stranded_samples", 0) or 0
        stranded = owned_end > 0 or stuck >= 2
        fig.update({"nic_owned": owned_end, "stranded_samples": stuck,
                    "doorbells": num(ctr, "doorbells", 0), "rekicks": num(ctr, "rekicks", 0)})
    fig["tx_timeouts"] = num(ctr, "kernel_tx_timeouts", 0)
    fig["tcp_retrans"] = num(ctr, "tcp_retrans", 0)
    collapse = stalled == 1 or mbps < 50
    clean = not stalled and done == ARGS["count"] and slow == 0 and mbps >= 100
    if collapse and (stranded or not sim):
        return common.REPRODUCED, fig, "flow stalled" + (" on frames stranded in the ring" if sim else "")
    if clean and not stranded:
        return common.CLEAN, fig, ""
    why = []
    if collapse:
        why.append("throughput collapsed but no stranded frame was sampled")
    else:
        if stranded:
            why.append("frames sampled stranded")
        if not clean:
            why.append(f"{done} transactions, {slow} slower than {ARGS['slow_ms']} ms, {mbps} Mbit/s")
    return None, fig, "; ".join(why)


def run(ctx: common.Context, driver: str) -> list:
    # untagged: the run directories keep the names derived from the arguments
    return common.old_fixed_stock(ctx, driver, NAME, "txpoll", "txpoll_rekick", judge,
                                  args=ARGS, tagged=False)
