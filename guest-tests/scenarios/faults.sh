# SPDX-License-Identifier: GPL-2.0-or-later
# faults: every fault class of the model (docs/FAULTS.md) against the driver, one after the
# other in one boot. Per class the guest asks the host to install the fault on the running
# device (STEP ctl -> run-guest: HMP `qom-set nic0 fault-add SPEC`; the host's answer comes
# back on the second serial port, /dev/ttyS1), runs the traffic that makes it fire (a stream
# to the peer's sink and one from its source, both verified: the peer checks the pattern it
# receives, rtl-traffic the one it receives), and judges:
#   recovered   both streams completed (traffic resumed after the fault, bytes verified)
#   no splat    no Oops/BUG/WARNING/lockdep/hung-task report in the kernel log of the class
#               (the TX watchdog's own "NETDEV WATCHDOG" warning, the mechanism tx-stop-fetch
#               exists to trigger, is counted as watchdog=1, not as a splat)
#   fired       the fault list (qom-get nic0 fault-list) says it fired (fired > 0)
#   accounted   the model's drop counters (qom-get nic0 x-stats) grew by at least the number
#               of frames the fault dropped (rx-withhold, rx-fifo-over, rx-bad-fcs, rx-runt,
#               rx-too-long: one frame per firing;
#               dma-read/dma-write: a failed transaction is counted as an error or a drop)
# One line per class: RESULT scenario=faults class=C verdict=PASS|FAIL fired=N ... why=...
# A class that fails (a driver that does not recover) is named in the VERDICT; the device is
# then reset from the guest (ip link down/up) so that the next classes still run.
# host: sink=12 source=12 bytes=8M action=faults timeout=420
. /scenarios/common.sh

TRAFFIC_TIMEOUT="${R_traffic_timeout:-45}"
probe_checks
link_checks
net_checks

# ---- the control channel: requests as STEP lines, answers on /dev/ttyS1 -----------------
[ -c /dev/ttyS1 ] || fail "no /dev/ttyS1 (run-guest adds the control port for action=faults)"
exec 3</dev/ttyS1 || fail "cannot open /dev/ttyS1"
stty raw -echo <&3 2>/dev/null
CTL_SEQ=0
# ctl COMMAND [ARG]: fault-add SPEC | fault-clear | fault-list | stats. The answer (key=value
# words) is in CTL_REPLY; returns 1 when the host refused (CTL_REPLY: its message).
ctl() {
  CTL_SEQ=$((CTL_SEQ + 1))
  step "ctl $CTL_SEQ $*"
  while read -t 30 -r line <&3; do
    line="$(echo "$line" | tr -d '\r')"
    case "$line" in
      "CTL $CTL_SEQ OK"*) CTL_REPLY="${line#CTL $CTL_SEQ OK}"; return 0 ;;
      "CTL $CTL_SEQ ERR"*) CTL_REPLY="${line#CTL $CTL_SEQ ERR }"; return 1 ;;
    esac
  done
  CTL_REPLY="no answer from the host within 30 s"
  return 1
}
# kv KEY TEXT: the value of KEY=value in TEXT (0 when absent)
kv() { v="$(echo " $2 " | sed -n "s/.* $1=\([^ ]*\) .*/\1/p")"; echo "${v:-0}"; }

ctl fault-list || fail "the host does not answer on the control port: $CTL_REPLY"
result "control=ok faults_listed=$(kv count "$CTL_REPLY")"

now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# Kernel log of the class without the TX watchdog's own warning block (6.1 reports the timeout
# with WARN_ONCE in dev_watchdog; 6.10+ with netdev_crit): what remains must have no splat.
SPLAT_RE='Oops|BUG:|WARNING:|lockdep|possible (circular|recursive) locking|general protection|Call Trace|Kernel panic|INFO: task .* blocked|rcu.*stall|hung_task'
strip_watchdog() {
  awk '/-+\[ cut here \]-+/ { blk = 1; buf = $0; wd = 0; next }
       blk { buf = buf "\n" $0; if ($0 ~ /NETDEV WATCHDOG/) wd = 1
             if ($0 ~ /---\[ end trace/) { if (!wd) print buf; blk = 0 }
             next }
       { print }
       END { if (blk && !wd) print buf }'
}

# ---- the dma-write class's traffic and figures ---------------------------------------------
# tx_ring_window: the 4 KiB of the TX descriptor ring (TxDescStartAddr, registers 0x20-0x27,
# read from the driver's register dump `ethtool -d eth0 hex on`, as the lab's lab_reg16 does):
# r8169 allocates its 256 descriptors of 16 bytes (NUM_TX_DESC, one page) in rtl_open, so the
# window holds the TX descriptors and nothing else. Printed as LO-HI for the fault's addr=.
tx_ring_window() {
  ethtool -d eth0 hex on 2>/dev/null | awk '
    function hex(s,   i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1; return v }
    # hex digits of v by division: busybox awk printf %x clamps values of 2^31 and above
    # (an IOVA under --iommu is near 4 GiB)
    function hx(v,   d, o) { o = ""; do { d = v % 16; o = substr("0123456789abcdef", d + 1, 1) o; v = (v - d) / 16 } while (v > 0); return o }
    /^0x[0-9a-fA-F]+:/ { base = hex(substr($1, 3, length($1) - 3)); for (j = 2; j <= NF; j++) byte[base + j - 2] = hex($j) }
    END {
      if (!((32 in byte) && (39 in byte))) exit 1
      a = 0
      for (i = 39; i >= 32; i--) a = a * 256 + byte[i]
      if (a == 0) exit 1
      printf "0x%s-0x%s\n", hx(a), hx(a + 4095)
    }'
}
# flood_retry: ping -i 0.01 -s 1000 to the peer, started again (after 20 ms) each time it
# exits, for at most 60 s or until killed. busybox ping exits at its first sendto() error; once
# a stalled TX engine backs the queue up, that error (ENOBUFS) came within a second of the stall
# in the lab (docs/FAULTS.md, lab case tx-writeback), and without more traffic the queue might
# never stop, so dev_watchdog would never look at it. The exits are counted (/tmp/flood.exits).
flood_retry() {
  p=""
  trap '[ -n "$p" ] && kill "$p" 2>/dev/null; exit 0' TERM
  end=$(( $(now_ms) + 60000 )); n=0
  while [ "$(now_ms)" -lt "$end" ]; do
    ping -q -i 0.01 -s 1000 -w $(( (end - $(now_ms)) / 1000 + 1 )) "$PEER" >/dev/null 2>&1 &
    p=$!
    wait "$p"
    p=""; n=$((n + 1)); echo "$n" >/tmp/flood.exits
    usleep 20000
  done
}
# tx_sampler: once a second until /tmp/sampler.stop (at most 120 s), what decides whether
# dev_watchdog can find the stall: eth0's completed TX packets (they stop moving while the ring
# waits at the failed slot), BQL's inflight and limit (STACK_XOFF once inflight > limit), the
# queue's tx_timeout count (the watchdog ran), and the flood's exits so far.
tx_sample() {  # tx_sample T: one line of /tmp/samples
  q=/sys/class/net/eth0/queues/tx-0
  echo "$1 $(netstat_of tx_packets) $(cat $q/byte_queue_limits/inflight 2>/dev/null || echo -)" \
       "$(cat $q/byte_queue_limits/limit 2>/dev/null || echo -) $(cat $q/tx_timeout 2>/dev/null || echo -)" \
       "$(cat /tmp/flood.exits 2>/dev/null || echo 0)" >>/tmp/samples
}
tx_sampler() {  # plus a last sample when stopped (the traffic's end), at the next second's index
  i=0
  while [ ! -f /tmp/sampler.stop ] && [ "$i" -le 120 ]; do
    tx_sample "$i"
    i=$((i + 1))
    sleep 1
  done
  tx_sample "$i"
}
# sampler_summary: the samples on the console, and into CLASS_NOTE: stall_s= (seconds in which
# no TX packet completed while the class ran), bql_peak_inflight=, watchdog_at_s= (the first
# sample that saw tx_timeout grow, 1 s resolution; - when none did: the class's watchdog= comes
# from the kernel log), flood_exits= (the times ping exited, i.e. was refused, and restarted)
sampler_summary() {
  [ -f /tmp/samples ] || return 0
  awk '{ printf "  sample t_s=%s tx_packets=%s bql_inflight=%s bql_limit=%s tx_timeout=%s flood_exits=%s\n", $1, $2, $3, $4, $5, $6 }' /tmp/samples
  CLASS_NOTE="$CLASS_NOTE $(awk '
    NR == 1 { wd0 = $5 }
    NR > 1 { if ($2 == last) stall++; if ($3 + 0 > peak) peak = $3 + 0
             if (wdat == "" && $5 != "-" && $5 > wd0) wdat = $1 }
    { last = $2; exits = $6 }
    END { printf "stall_s=%d bql_peak_inflight=%d watchdog_at_s=%s flood_exits=%d", stall, peak, (wdat == "" ? "-" : wdat), exits }' /tmp/samples)"
}

FAILED=""
PASSED=0
# A class: class_begin NAME; class_add SPEC (fault-add on the host); class_traffic (a verified
# stream each way); class_end DROP_KEYS (judge, one RESULT line, fault-clear). DROP_KEYS: the
# x-stats counters whose growth must cover every firing ("-": the class drops no frame).
# CLASS_NOTE collects extra figures of the class.
class_begin() {
  CLASS="$1"; WHY=""; CLASS_NOTE=""; TX_MBPS=-; RX_MBPS=-
  guest_dmesg_clear
  ctl stats || WHY="${WHY}stats:$CTL_REPLY;"
  STATS0="$CTL_REPLY"
  t_class0="$(now_ms)"
}
class_add() {
  if ! ctl fault-add "$1"; then
    WHY="${WHY}fault-add_refused:$(echo "$CTL_REPLY" | tr ' ' '_');"
    return 1
  fi
}
# class_traffic [flood]: "flood" adds 100 pings/s of 1 KiB next to the streams. A single TCP
# flow keeps fewer frames in flight than r8169's 256 TX descriptors, so a stalled TX engine
# might never stop the queue, and dev_watchdog (which only looks at stopped queues: the
# driver's DRV_XOFF or BQL's STACK_XOFF) would never run rtl8169_tx_timeout: the pings are
# meant to fill the ring as any busy host's other traffic would. Caveat (lab case
# tx-writeback, docs/FAULTS.md): busybox ping exits at its first sendto error, which came
# (ENOBUFS) within a second of a stall in the lab.
# "flood-retry" (the dma-write and tx-stop-fetch classes): the same flood, but ping is started again whenever
# it exits, so that the refusals of a stalled queue do not end it (flood_retry), and the TX
# queue is sampled once a second meanwhile (tx_sampler).
class_traffic() {
  fpid=""; spid=""
  case "${1:-}" in
    flood)
      ping -q -i 0.01 -s 1000 -w 60 "$PEER" >/dev/null 2>&1 &
      fpid=$! ;;
    flood-retry)
      rm -f /tmp/flood.exits /tmp/samples /tmp/sampler.stop
      tx_sampler &
      spid=$!
      flood_retry &
      fpid=$! ;;
  esac
  tx_stream "$BYTES" "$R_sink" >/tmp/tx.out 2>&1; txrc=$?
  rx_stream "$BYTES" "$R_source" >/tmp/rx.out 2>&1; rxrc=$?
  [ -n "$fpid" ] && kill "$fpid" 2>/dev/null
  if [ -n "$spid" ]; then
    : >/tmp/sampler.stop
    wait "$spid" 2>/dev/null
    wait "$fpid" 2>/dev/null
    sampler_summary
  fi
  cat /tmp/tx.out /tmp/rx.out
  TX_MBPS="$(kv mbps "$(grep '^RESULT ' /tmp/tx.out | tail -1)")"
  RX_MBPS="$(kv mbps "$(grep '^RESULT ' /tmp/rx.out | tail -1)")"
  [ "$txrc" -eq 0 ] || WHY="${WHY}tx_stream_failed;"
  [ "$rxrc" -eq 0 ] || WHY="${WHY}rx_stream_failed;"
}
# class_end DROP_KEYS [watchdog]: with "watchdog", the driver's TX watchdog must have run
class_end() {
  t_class1="$(now_ms)"
  ctl fault-list || WHY="${WHY}fault-list:$CTL_REPLY;"
  LIST="$CTL_REPLY"
  fired="$(kv fired "$LIST")"
  stalled="$(kv tx_stalled "$LIST")"
  ctl stats || WHY="${WHY}stats:$CTL_REPLY;"
  STATS1="$CTL_REPLY"
  ctl fault-clear || WHY="${WHY}fault-clear:$CTL_REPLY;"
  [ "$fired" -gt 0 ] 2>/dev/null || WHY="${WHY}never_fired;"
  [ "$stalled" = true ] && WHY="${WHY}tx_still_stalled;"
  # drops counted by the model during the class
  drops=0; detail=""
  for k in rx_dropped_no_desc rx_dropped_fifo_over rx_dropped_dma rx_dropped_disabled \
           rx_dropped_bad_fcs rx_dropped_short rx_dropped_too_long \
           tx_dropped_link_down tx_dma_errors tx_writeback_errors sys_errors; do
    d=$(( $(kv "$k" "$STATS1") - $(kv "$k" "$STATS0") ))
    [ "$d" -ne 0 ] && detail="$detail $k=$d"
    case " $1 " in *" $k "*) drops=$((drops + d)) ;; esac
  done
  case "$1" in
    -) ;;
    *) [ "$drops" -ge "$fired" ] || WHY="${WHY}uncounted_drops($drops<$fired);" ;;
  esac
  guest_dmesg_clear /tmp/class.log
  watchdog=0
  grep -q 'NETDEV WATCHDOG\|transmit queue [0-9]* timed out' /tmp/class.log && watchdog=1
  [ "${2:-}" = watchdog ] && [ "$watchdog" != 1 ] && WHY="${WHY}no_tx_watchdog;"
  resets="$(grep -c 'Link is Down' /tmp/class.log)"
  splat="$(strip_watchdog </tmp/class.log | grep -E "$SPLAT_RE" | head -1)"
  if [ -n "$splat" ]; then
    WHY="${WHY}splat:$(echo "$splat" | sed 's/^\[[ 0-9.]*\] //' | tr ' ' '_' | cut -c1-80);"
    sed 's/^/  | /' /tmp/class.log | tail -40
  fi
  verdict=PASS
  [ -n "$WHY" ] && verdict=FAIL
  result "class=$CLASS verdict=$verdict fired=$fired tx_mbps=$TX_MBPS rx_mbps=$RX_MBPS" \
         "wall_ms=$((t_class1 - t_class0)) watchdog=$watchdog link_down_logged=$resets" \
         "drops_counted=$drops$detail$CLASS_NOTE why=${WHY:-ok}"
  if [ "$verdict" = PASS ]; then
    PASSED=$((PASSED + 1))
  else
    FAILED="$FAILED $CLASS"
    # put the device back for the next class: the driver's open path resets the chip
    ip link set eth0 down; ip link set eth0 up
    wait_link 15 || result "class=$CLASS rescue=no_carrier"
  fi
}

step faults-begin
# dma-read: three bus-master reads fail in the middle of the streams (TX descriptor/data, RX
# descriptor or RX descriptor read-ahead): TxErr|SYSErr, a dropped frame (SYSErr|RxErr) or,
# for a read-ahead, SYSErr alone with nothing lost (the slot is read again: rx_engine.cc
# on_prefetch_done); the driver resends (TCP) or walks on at the next doorbell. Every failed
# read raises SYSErr once, so sys_errors must have grown by every firing. (Until 2026-12-05 a
# failed read-ahead was counted nowhere and the class asked for one of three: a run whose three
# faults all hit read-aheads failed with nothing_counted(0_of_3).)
class_begin dma-read
class_add "dma-read:nth=300;dma-read:nth=2000;dma-read:nth=5000" && class_traffic
class_end "sys_errors"

# dma-write: one TX descriptor write-back fails: the fault is aimed at the TX ring's 4 KiB
# (addr=, read from the chip's registers) and fires on the 100th write-back there after it is
# installed, early in the TX stream. The engine stops (TxErr|SYSErr, tx_writeback_errors) and
# the descriptor stays owned until the driver resets the chip, which r8169 (SYSErr ignored on
# the 8168c since 10ce0db78700) only does from its TX watchdog; dev_watchdog only looks at a
# stopped queue (DRV_XOFF from the ring check or STACK_XOFF from BQL, both count). The flood
# next to the streams is restarted whenever ping exits (flood_retry): on 7.2 the earlier form of
# this class (the 600th write of any kind, a flood that died at its first ENOBUFS) did not
# recover in 2 of 4 runs (watchdog=0), and the lab case tx-writeback showed busybox ping exiting
# right after a stall, leaving only what the TCP flow had queued to stop the queue
# (docs/FAULTS.md). The class's per-second TX figures are printed (sample lines) and summed up
# in its RESULT line (stall_s, bql_peak_inflight, watchdog_at_s, flood_exits).
class_begin dma-write
win="$(tx_ring_window)"
if [ -z "$win" ]; then
  WHY="${WHY}no_tx_ring_address;"
else
  CLASS_NOTE=" tx_ring=$win"
  class_add "dma-write:addr=$win,nth=100,count=1" && class_traffic flood-retry
fi
class_end "tx_writeback_errors"

# rx-withhold: an RDU storm of 16 frames in the middle of the streams
class_begin rx-withhold
class_add "rx-withhold:frame=200,count=16" && class_traffic
class_end "rx_dropped_no_desc"

# rx-fifo-over: 8 frames overflow the RX FIFO
class_begin rx-fifo-over
class_add "rx-fifo-over:frame=200,count=8" && class_traffic
class_end "rx_dropped_fifo_over"

# link: carrier down and back (a cable pull), then the partner drops to 100 Mbit/s full duplex
# (the link renegotiates: the driver must report 100/full and carry traffic), then back to the
# chip's own speed (CHIP_SPEED: 1000, 2500 for the RTL8125B's PHY)
class_begin link
if class_add "link:down"; then
  wait_carrier 0 10 || WHY="${WHY}carrier_never_dropped;"
  class_add "link:up"
  wait_carrier 1 15 || WHY="${WHY}carrier_not_back;"
  class_add "link:speed=100"
  wait_carrier 0 10
  wait_carrier 1 15 || WHY="${WHY}no_carrier_at_100;"
  sleep 1
  sp="$(cat /sys/class/net/eth0/speed 2>/dev/null)"; dp="$(cat /sys/class/net/eth0/duplex 2>/dev/null)"
  CLASS_NOTE=" speed_after=$sp/$dp"
  [ "$sp" = 100 ] && [ "$dp" = full ] || WHY="${WHY}speed_${sp}_${dp}_not_100_full;"
  class_traffic
  back="${CHIP_SPEED:-1000}"
  class_add "link:speed=$back"
  wait_carrier 0 10
  wait_carrier 1 15 || WHY="${WHY}no_carrier_at_$back;"
  sleep 1
  sp="$(cat /sys/class/net/eth0/speed 2>/dev/null)"
  CLASS_NOTE="$CLASS_NOTE speed_restored=$sp"
  [ "$sp" = "$back" ] || WHY="${WHY}speed_${sp}_not_restored;"
fi
class_end "-"

# autoneg-slow: the next autonegotiation (the carrier coming back) takes 3 s longer
class_begin autoneg-slow
if class_add "autoneg-slow:delay=3s;link:down"; then
  wait_carrier 0 10 || WHY="${WHY}carrier_never_dropped;"
  t0="$(now_ms)"
  class_add "link:up"
  wait_carrier 1 20 || WHY="${WHY}carrier_not_back;"
  t1="$(now_ms)"
  CLASS_NOTE=" link_up_ms=$((t1 - t0))"
  [ $((t1 - t0)) -ge 3000 ] || WHY="${WHY}link_up_in_$((t1 - t0))ms_not_delayed;"
  class_traffic
fi
class_end "-"

# spurious-irq: SYSErr together with RxOK, three times 100 ms apart, with no cause
class_begin spurious-irq
class_add "spurious-irq:bits=0x8001,every=100ms,count=3" && class_traffic
class_end "-"

# irq-race: a device event right after each IntrStatus read and after each ack
class_begin irq-race
class_add "irq-race:after=read,count=2000;irq-race:after=ack,count=2000" && class_traffic
class_end "-"

# tx-stop-fetch: the TX engine stops fetching after 199 frames; only the driver's TX watchdog
# (dev_watchdog -> rtl8169_tx_timeout -> rtl_reset_work) brings it back
class_begin tx-stop-fetch
# flood-retry, as for dma-write: a plain flood died on its first ENOBUFS and once (1 of 14 runs,
# 6.12 --iommu, docs/FAULTS.md) left the queue unstopped and the watchdog idle for 90 s
class_add "tx-stop-fetch:frame=200" && class_traffic flood-retry
class_end "-" watchdog

# rx-bad-fcs, rx-runt, rx-too-long: 8 frames each arrive with a bad FCS, cut below 64 bytes, or
# running on past RxMaxSize; r8169 leaves RXALL off, so the chip discards and counts each one
# (the tally's rx_errors, ethtool -S) and TCP resends what they carried
class_begin rx-bad-fcs
class_add "rx-bad-fcs:frame=200,count=8" && class_traffic
class_end "rx_dropped_bad_fcs"

class_begin rx-runt
class_add "rx-runt:frame=200,count=8" && class_traffic
class_end "rx_dropped_short"

class_begin rx-too-long
class_add "rx-too-long:frame=200,count=8" && class_traffic
class_end "rx_dropped_too_long"

link_checks
result "classes_passed=$PASSED classes_failed=$(echo $FAILED | wc -w)"
[ -z "$FAILED" ] || fail "classes that did not recover:$FAILED"
pass "12 fault classes fired, recovered with verified traffic, drops counted, no splat"
