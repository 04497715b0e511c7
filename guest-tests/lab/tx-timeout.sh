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
now_ms=$(( $(lab_now_ns) / 1000000 ))
[ "$now_ms" -lt $((at_ms - lead_ms - 200)) ] ||
  lab_fail "setup ended at $now_ms ms (virtual), too late for the fault at $at_ms ms: raise --arg fault_at_ms and the property together"
wd0=$(cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0)
resets0=$(lab_stat drv_resets)
max_ms=$(( count * iv / 1000 + 2000 ))
ns env LAB_READY=/tmp/ready fault-tool udp-gap 7200 "$count" "$max_ms" >/tmp/gap &
lab_wait_file /tmp/ready 50 || lab_fail "receiver not ready"
now_ms=$(( $(lab_now_ns) / 1000000 ))
[ "$now_ms" -lt $((at_ms - lead_ms)) ] && usleep $(( (at_ms - lead_ms - now_ms) * 1000 ))
lab_log "stream starts at $(( $(lab_now_ns) / 1000000 )) ms, fault at $at_ms ms"
fault-tool udp-pace 10.9.0.2 7200 "$count" "$iv" >/tmp/pace
n=0; while ! grep -q RESULT /tmp/gap 2>/dev/null; do
  n=$((n+1)); [ "$n" -gt $(( max_ms / 100 + 50 )) ] && lab_fail "receiver did not finish"; usleep 100000
done
cat /tmp/pace /tmp/gap
wd=$(( $(cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0) - wd0 ))
resets=$(( $(lab_stat drv_resets) - resets0 ))
[ $sim = 1 ] || resets=-
bql=/sys/class/net/$IFA/queues/tx-0/byte_queue_limits
inflight=$(cat $bql/inflight 2>/dev/null || echo -); limit=$(cat $bql/limit 2>/dev/null || echo -)
g() { grep -oE "$1=[-0-9]+" /tmp/gap | head -n1 | cut -d= -f2; }
refused=$(grep -oE 'refused=[0-9]+' /tmp/pace | cut -d= -f2)
dmesg | grep -E 'timed out|TX timeout|resetting|PCI error' | tail -4 | sed 's/^/  /'
lab_result "what=tx-timeout sent=$count received=$(g unique) lost=$(g lost) max_gap_us=$(g max_gap_us) gap_at_ms=$(g gap_at_ms) after_gap=$(g after_gap) tail_ms=$(g tail_ms) refused=${refused:-0} tx_timeouts=$wd resets=$resets bql_inflight=$inflight bql_limit=$limit"
# the trailing ping shows whether the DUT can send at all after the run
ping -c 1 -W 2 10.9.0.2 >/dev/null 2>&1 && lab_result "what=after ping=ok" || lab_result "what=after ping=failed"
lab_done
