# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "tx-timeout" (episode tx-timeout-recovery, docs/HISTORY.md §7): the DUT's TX DMA
# engine stops fetching (the tx-stop-fetch fault, given by the episode as the DUT property
# faults=tx-stop-fetch:at=<LAB_fault_at_ms>ms) while the DUT sends a paced UDP stream
# (64-byte datagrams, one per LAB_interval_us, from 1 s before the fault) to the partner.
# The ring fills, the queue stops, the kernel's TX watchdog (6 s) calls the driver's
# ndo_tx_timeout, which resets the chip. The case measures whether and when the stream came
# back: the longest silence at the receiver (max_gap_us, gap_at_ms), the silence from the last
# datagram to the end (tail_ms: the stream never resumed), the watchdog's count
# (queues/tx-0/tx_timeout) and the DUT's byte queue limit state (inflight, limit) at the end.
#   --arg fault_at_ms=20000 --arg count=10000 --arg interval_us=2000
# lab-programs: lab-tool fault-tool
at_ms="${LAB_fault_at_ms:-20000}"; count="${LAB_count:-10000}"; iv="${LAB_interval_us:-2000}"
lead_ms=1000
sim=0; [ "$LAB_driver" = rtl8168sim ] && sim=1
lab_fault_in_time "$at_ms" "$lead_ms"
wd0=$(cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0)
resets0=$(lab_stat drv_resets)
max_ms=$(( count * iv / 1000 + 2000 ))
lab_paced_stream 7200 "$count" "$iv" "$at_ms" "$lead_ms" "$max_ms"
wd=$(( $(cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0) - wd0 ))
resets=$(( $(lab_stat drv_resets) - resets0 ))
[ $sim = 1 ] || resets=-
bql=/sys/class/net/$IFA/queues/tx-0/byte_queue_limits
inflight=$(cat $bql/inflight 2>/dev/null || echo -); limit=$(cat $bql/limit 2>/dev/null || echo -)
refused=$(grep -oE 'refused=[0-9]+' /tmp/pace | cut -d= -f2)
dmesg | grep -E 'timed out|TX timeout|resetting|PCI error' | tail -4 | sed 's/^/  /'
lab_result "what=tx-timeout sent=$count received=$(lab_gap unique) lost=$(lab_gap lost) max_gap_us=$(lab_gap max_gap_us) gap_at_ms=$(lab_gap gap_at_ms) after_gap=$(lab_gap after_gap) tail_ms=$(lab_gap tail_ms) refused=${refused:-0} tx_timeouts=$wd resets=$resets bql_inflight=$inflight bql_limit=$limit"
# the trailing ping shows whether the DUT can send at all after the run
ping -c 1 -W 2 10.9.0.2 >/dev/null 2>&1 && lab_result "what=after ping=ok" || lab_result "what=after ping=failed"
lab_done
