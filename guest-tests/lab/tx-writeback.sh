# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "tx-writeback" (docs/FAULTS.md, "The dma-write class on 7.2"): one TX descriptor
# write-back of the DUT fails (the dma-write fault, given as the DUT property
# faults=dma-write:at=<LAB_fault_at_ms>ms[,,addr=<TX ring>]) while the DUT sends to the partner.
# The model then stops its TX engine (TxErr|SYSErr) and the descriptor stays owned, so r8169's
# rtl_tx stops at that slot: no skb is freed again until the driver resets the chip, which the
# stock r8169 of an 8168c only does from its TX watchdog (dev_watchdog -> rtl8169_tx_timeout).
# dev_watchdog only looks at a stopped queue (netif_xmit_stopped: DRV_XOFF from the driver's
# ring check, STACK_XOFF from BQL). The case samples, once a second from the fault on, what
# decides whether the queue stops: the ring (skbs the driver has not completed: the DUT's TX
# packets in /proc/net/dev stop moving), BQL (inflight, limit), the qdisc backlog, and whether
# the watchdog ran (queues/tx-0/tx_timeout) and the partner receives again.
#   --arg traffic=tcp|udp|rr  tcp: lab-tool send (64 KiB writes, one flow), udp: lab-tool
#                           udp-send of 1472-byte datagrams as fast as the socket takes them,
#                           rr: lab-tool rr, one 64-byte request/response at a time (a
#                           request-response application: one frame outstanding)
#   --arg flood=1           plus ping -i 0.01 -s 1000 to the partner (the faults scenario's
#                           flood; its echo replies are RX writes: target the fault with addr=)
#   --arg stream_ms=300     tcp: the sender writes for this long (virtual ms; a stalled write
#                           ends there too), from the fault's time on
#   --arg udp_count=20000   udp: datagrams, from the fault's time on
#   --arg fault_at_ms=20000 --arg watch_ms=20000
# The DUT's TX descriptor ring address (TxDescStartAddr, from `ethtool -d`) is printed
# (tx_ring=), so that addr= can name the ring's 4 KiB: the lab is deterministic, the address is
# the same in every run of one kernel, case script and --arg set (a change to any moves it).
# lab-programs: lab-tool
at_ms="${LAB_fault_at_ms:-20000}"; watch_ms="${LAB_watch_ms:-20000}"
traffic="${LAB_traffic:-tcp}"; flood="${LAB_flood:-1}"
stream_ms="${LAB_stream_ms:-300}"; udp_count="${LAB_udp_count:-20000}"
lead_ms=3000
case "$traffic" in tcp|udp|rr) ;; *) lab_fail "--arg traffic=$traffic: expects tcp, udp or rr" ;; esac
case "$flood" in 0|1) ;; *) lab_fail "--arg flood=$flood: expects 0 or 1" ;; esac
now_ms=$(( $(lab_now_ns) / 1000000 ))
[ "$now_ms" -lt $((at_ms - lead_ms - 200)) ] ||
  lab_fail "setup ended at $now_ms ms (virtual), too late for the fault at $at_ms ms: raise --arg fault_at_ms and the property together"
# TxDescStartAddrLow (0x20) of the DUT
ring=$(( $(lab_reg16 22) * 65536 + $(lab_reg16 20) ))
lab_result "what=ring tx_ring=$(printf '0x%x' "$ring") window=$(printf '0x%x-0x%x' "$ring" $((ring + 4095)))"
q=/sys/class/net/$IFA/queues/tx-0
wd0=$(cat $q/tx_timeout 2>/dev/null || echo 0)
if [ "$traffic" = tcp ]; then
  ns env LAB_READY=/tmp/ready lab-tool recv 7300 $(( watch_ms + 5000 )) >/tmp/recv &
  lab_wait_file /tmp/ready 50 || lab_fail "receiver not ready"
elif [ "$traffic" = rr ]; then
  ns env LAB_READY=/tmp/ready lab-tool rr-server 7300 >/tmp/recv &
  lab_wait_file /tmp/ready 50 || lab_fail "rr server not ready"
else
  ns lab-tool udp-recv 7300 "$udp_count" $(( watch_ms + 5000 )) >/tmp/recv &
fi
# the traffic starts at the fault's time: addr=<ring>,,nth=N fails the Nth TX write-back of it
now_ms=$(( $(lab_now_ns) / 1000000 ))
[ "$now_ms" -lt "$at_ms" ] && usleep $(( (at_ms - now_ms) * 1000 ))
if [ "$traffic" = tcp ]; then
  lab-tool send 10.9.0.2 7300 "$stream_ms" >/tmp/send &
elif [ "$traffic" = rr ]; then
  lab-tool rr 10.9.0.2 7300 64 64 1000000 $(( watch_ms - 1000 )) >/tmp/send &
else
  lab-tool udp-send 10.9.0.2 7300 "$udp_count" 1472 >/tmp/send &
fi
spid=$!
fpid=""
if [ "$flood" = 1 ]; then
  ping -q -i 0.01 -s 1000 -w $(( watch_ms / 1000 )) 10.9.0.2 >/tmp/ping.out 2>&1 &
  fpid=$!
fi
lab_log "traffic=$traffic flood=$flood from $(( $(lab_now_ns) / 1000000 )) ms, fault at $at_ms ms"
rxb() { ns cat /proc/net/dev | awk -v i="$IFB:" '$1 == i { print $2 }'; }
txp() { awk -v i="$IFA:" '$1 == i { print $11 }' /proc/net/dev; }
backlog() { tc -s qdisc show dev "$IFA" 2>/dev/null | awk '/backlog/ { b += $3 + 0; p += $2 + 0 } END { printf "%db/%dp", b, p }'; }
# one sample a second, from the fault's time to watch_ms after it
t=$at_ms
n=0; wd_at=-; stall_from=-; resumed_at=-; last_txp=""; last_rxb=""; peak_infl=0; lim_at_stall=-
while [ "$t" -le $(( at_ms + watch_ms )) ]; do
  now_ms=$(( $(lab_now_ns) / 1000000 ))
  [ "$now_ms" -lt "$t" ] && usleep $(( (t - now_ms) * 1000 ))
  p=$(txp); r=$(rxb); infl=$(cat $q/byte_queue_limits/inflight); lim=$(cat $q/byte_queue_limits/limit)
  wd=$(( $(cat $q/tx_timeout 2>/dev/null || echo 0) - wd0 ))
  bl=$(backlog)
  nud=$(ip neigh show 10.9.0.2 dev "$IFA" 2>/dev/null | awk '{ print $NF }')
  pinging=0; [ -n "$fpid" ] && kill -0 "$fpid" 2>/dev/null && pinging=1
  moving=1; [ -n "$last_txp" ] && [ "$p" = "$last_txp" ] && moving=0
  lab_result "what=sample t_ms=$(( t - at_ms )) dut_tx_packets=$p partner_rx_bytes=$r bql_inflight=$infl bql_limit=$lim qdisc_backlog=$bl tx_timeouts=$wd completing=$moving neigh=${nud:-none} ping_alive=$pinging"
  if [ "$t" -gt "$at_ms" ]; then
    [ "$moving" = 0 ] && [ "$stall_from" = - ] && { stall_from=$(( t - at_ms )); lim_at_stall=$lim; }
    [ "$infl" -gt "$peak_infl" ] && peak_infl=$infl
    [ "$wd" -gt 0 ] && [ "$wd_at" = - ] && wd_at=$(( t - at_ms ))
    [ "$stall_from" != - ] && [ "$moving" = 1 ] && [ "$resumed_at" = - ] && resumed_at=$(( t - at_ms ))
  fi
  last_txp=$p; last_rxb=$r
  t=$(( t + 1000 ))
done
wd=$(( $(cat $q/tx_timeout 2>/dev/null || echo 0) - wd0 ))
[ -n "$fpid" ] && kill "$fpid" 2>/dev/null
dmesg | grep -E 'timed out|NETDEV WATCHDOG|ASPM|BUG' | tail -4 | sed 's/^/  /'
lab_result "what=tx-writeback traffic=$traffic flood=$flood stall_from_ms=$stall_from bql_peak_inflight=$peak_infl bql_limit_at_stall=$lim_at_stall tx_timeouts=$wd watchdog_at_ms=$wd_at resumed_at_ms=$resumed_at"
kill "$spid" 2>/dev/null
sed 's/^/  sender: /' /tmp/send
[ -f /tmp/ping.out ] && sed 's/^/  ping: /' /tmp/ping.out
lab_done
