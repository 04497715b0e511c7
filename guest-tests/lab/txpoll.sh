# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "txpoll" (episode txpoll-stall, docs/HISTORY.md section 1): Samba-read-like
# request/response where the DUT transmits the large responses. The partner (r8169, in its
# namespace) is an old-style client with a small receive buffer (SO_RCVBUF, default 16 KiB, like
# the ~17 KB default window of 2007-era Windows clients): it sends REQ-byte requests, the DUT
# answers each with RESP bytes (lab-tool rr-server), window-clocked by the client's ACKs.
# Bounded: at most LAB_count transactions or LAB_max_ms of virtual time (a transaction still
# waiting 1 s after that is abandoned: stalled=1).
#   --arg req=64 --arg resp=65536 --arg rcvbuf=16384 (0 = default) --arg count=200
#   --arg max_ms=2000 --arg slow_ms=20 --arg chunk=0 (server write size; 0 = whole response)
#   --arg sample_ms=100   (period of the DUT counter sampler; 0 = off)
#   --arg sweep=STEP:SPAN (ns; the client's read phase sweep, lab-tool LAB_SWEEP; 0:0 = off):
#   before its k-th read() the client waits (k * STEP) mod SPAN ns, so its window updates
#   reach the DUT at every phase of the DUT's transmit instead of one phase locked in by the
#   guest's exact instruction stream (which a kernel or module rebuild moves)
# RESULT lines: the rr client's figures; the DUT's TX counters before/after; for rtl8168sim
# the sampler's view of descriptors still owned by the NIC (a stranded frame stays owned
# until the next doorbell).
# lab-programs: lab-tool
req="${LAB_req:-64}"; resp="${LAB_resp:-65536}"; count="${LAB_count:-200}"
rcvbuf="${LAB_rcvbuf:-16384}"; chunk="${LAB_chunk:-0}"
max_ms="${LAB_max_ms:-2000}"; slow_ms="${LAB_slow_ms:-20}"; sample_ms="${LAB_sample_ms:-100}"
sweep="${LAB_sweep:-0:0}"

snmp() {  # root namespace TCP counters: RetransSegs, TCPLossProbes, TCPTimeouts
  awk '/^Tcp: [0-9]/ { for (i = 2; i <= NF; i++) v["Tcp", i] = $i } /^Tcp: [A-Z]/ { for (i = 2; i <= NF; i++) n["Tcp", i] = $i }
       END { for (k in n) if (n[k] == "RetransSegs") r = v[k]; printf "%d", r }' /proc/net/snmp
  printf ' '
  awk '/^TcpExt: [A-Z]/ { for (i = 2; i <= NF; i++) n[i] = $i; next } /^TcpExt: [0-9]/ { for (i = 2; i <= NF; i++) { if (n[i] == "TCPLossProbes") p = $i; if (n[i] == "TCPTimeouts") t = $i } }
       END { printf "%d %d", p, t }' /proc/net/netstat
}
sim=0; [ "$LAB_driver" = rtl8168sim ] && sim=1
txp0="$(cat /sys/class/net/$IFA/statistics/tx_packets)"
set -- $(snmp); retr0=$1; tlp0=$2; rto0=$3
if [ $sim = 1 ]; then db0=$(lab_stat drv_txpoll_doorbell); rk0=$(lab_stat drv_txpoll_rekick); fi

rm -f /tmp/ready
LAB_CHUNK=$chunk LAB_READY=/tmp/ready lab-tool rr-server 5001 >/tmp/server.out &
SRV=$!
lab_wait_file /tmp/ready 50 || lab_fail "rr server not ready"

# sampler: descriptors queued / owned by the NIC, every sample_ms (rtl8168sim only)
if [ $sim = 1 ] && [ "$sample_ms" -gt 0 ]; then
  (
    n=0; owned_n=0; owned_max=0; stuck=0; last=""
    while [ ! -f /tmp/rr.done ]; do
      usleep $((sample_ms * 1000))
      set -- $(ethtool -S "$IFA" | awk '$1 == "drv_tx_pending:" {p = $2} $1 == "drv_tx_pending_nic_owned:" {o = $2} $1 == "tx_packets:" {t = $2} END {print p + 0, o + 0, t + 0}')
      n=$((n+1))
      if [ "$2" -gt 0 ]; then
        owned_n=$((owned_n+1)); [ "$2" -gt "$owned_max" ] && owned_max=$2
        # the same frames still owned and nothing sent since the last sample: stranded
        [ "$last" = "$1 $2 $3" ] && stuck=$((stuck+1))
      fi
      last="$1 $2 $3"
    done
    echo "samples=$n owned_samples=$owned_n owned_max=$owned_max stranded_samples=$stuck" >/tmp/sampler.out
  ) &
  SMP=$!
fi

t0=$(lab_now_ns)
if [ "$rcvbuf" -gt 0 ]; then export LAB_RCVBUF=$rcvbuf; fi
export LAB_SWEEP=$sweep
ns lab-tool rr 10.9.0.1 5001 "$req" "$resp" "$count" "$max_ms" "$slow_ms" >/tmp/rr.out
unset LAB_RCVBUF LAB_SWEEP
t1=$(lab_now_ns)
touch /tmp/rr.done
[ -n "${SMP:-}" ] && wait $SMP
owned_stall=""
[ $sim = 1 ] && owned_stall=$(lab_stat drv_tx_pending_nic_owned)
# byte queue limits of the DUT when the client gave up (stranded bytes stay "in flight")
bql=/sys/class/net/$IFA/queues/tx-0/byte_queue_limits
bql_inflight=$(cat $bql/inflight 2>/dev/null || echo -); bql_limit=$(cat $bql/limit 2>/dev/null || echo -)
qdisc_backlog=$(tc -s qdisc show dev "$IFA" 2>/dev/null | grep -oE 'backlog [0-9]+b [0-9]+p' | head -n1 | tr ' ' _)
# the server ends at EOF (or stays blocked when the client gave up on a stalled response)
n=0; while kill -0 $SRV 2>/dev/null && [ $n -lt 10 ]; do usleep 100000; n=$((n+1)); done
kill $SRV 2>/dev/null
# After a stall: does the kernel's TX watchdog notice (it only looks at stopped queues - BQL
# stops the queue once the stranded bytes reach its limit)? Wait up to LAB_watchdog_s (virtual
# seconds, default 8), then send one ping from the DUT ("any second flow of traffic made it
# fast again": a new doorbell releases the stranded frames unless the queue is stopped).
wd0=$(cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0)
if grep -q 'stalled=1' /tmp/rr.out; then
  n=0
  while [ "$(cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0)" = "$wd0" ] &&
        [ $n -lt $((${LAB_watchdog_s:-8} * 2)) ]; do usleep 500000; n=$((n+1)); done
fi
wd1=$(cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0)
ping -c 1 -W 1 10.9.0.2 >/dev/null 2>&1 && ping_after=ok || ping_after=lost
usleep 100000

rr="$(cat /tmp/rr.out)"
lab_result "${rr#RESULT } wall_ns=$((t1 - t0))"
txp1="$(cat /sys/class/net/$IFA/statistics/tx_packets)"
set -- $(snmp)
line="bql_inflight=$bql_inflight bql_limit=$bql_limit qdisc=${qdisc_backlog:-?} kernel_tx_timeouts=$((wd1 - wd0)) ping_after=$ping_after tx_packets=$((txp1 - txp0)) tcp_retrans=$(($1 - retr0)) tcp_loss_probes=$(($2 - tlp0)) tcp_rto=$(($3 - rto0))"
if [ $sim = 1 ]; then
  line="$line doorbells=$(( $(lab_stat drv_txpoll_doorbell) - db0 )) rekicks=$(( $(lab_stat drv_txpoll_rekick) - rk0 ))"
  line="$line tx_timeouts=$(lab_stat drv_tx_timeouts) resets=$(lab_stat drv_resets)"
  line="$line nic_owned_at_end=$owned_stall nic_owned_after_ping=$(lab_stat drv_tx_pending_nic_owned)"
  [ -f /tmp/sampler.out ] && line="$line $(cat /tmp/sampler.out)"
fi
lab_result "what=counters $line"
grep -q 'status=error' /tmp/rr.out && lab_fail "rr client error: $rr"
lab_done
