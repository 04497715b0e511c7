# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "dma-burst" (episode dma-burst, docs/HISTORY.md section 3): TCP_STREAM from the DUT
# (10.9.0.1) to the partner (10.9.0.2, r8169) with TSO on, one connection per MTU point; the
# MTU is changed on both ends between points (the new connection's MSS follows it).
#   --arg mtus=576:1500:50,1074,1075,1076,1077,1078   comma list of MTUs or FROM:TO:STEP
#   --arg bytes=10M     bytes sent per point (rtl-traffic suffixes K/M)
#   --arg warmup=2M     bytes received before the timed window starts (slow start excluded)
#   --arg offloads=tso  tso: ethtool -K sg on tso on tx on; keep: leave the driver's defaults
#   --arg partner_defer=2:20000   the partner's napi_defer_hard_irqs:gro_flush_timeout (ns), or off
# RESULT lines (one per point, after a "kind=features sg= tso= tx= mxdma= burst_bytes=" line):
#   RESULT case=dma-burst kind=point point=N mtu=M mss=M-40 mxdma=0..7 burst_bytes=B|unlimited
#          mbps=X (steady-state goodput, receiver side) total_mbps=X busy_pct=X
#          retrans=N partner_missed=N tx_frames=N rx_frames=N payload_per_frame=X
# The partner NIC runs in functional mode (timing=off): it receives at no cost in virtual time,
# so no point is limited by the receiving NIC's own PCIe path (an RTL8168c model fetches one RX
# descriptor per frame, 2.9 us, and falls below line rate under MTU ~1050). What the 2012
# report measured is the sender's TX DMA; the lab measures the DUT against the bench.
# lab-partner-props: timing=off
# busy_pct: share of the timed window the (single) guest CPU was not idle (/proc/timer_list
# idle_sleeptime; sender AND receiver run on it). Informational: 6.12 reports 37-52 % on
# points that sit exactly on a device bound, 6.1 reports ~100 % on the same points.
mtus="${LAB_mtus:-576:1500:50,1074,1075,1076,1077,1078}"
bytes="${LAB_bytes:-10M}"
warmup="${LAB_warmup:-2M}"
offloads="${LAB_offloads:-tso}"

rtl-traffic --help 2>&1 | grep -q -- '--warmup' ||
  lab_fail "rtl-traffic has no --warmup (scripts/run-lab builds it from guest-tests/programs/rtl-traffic.c)"

# every MTU of the list, in order (FROM:TO:STEP ranges expanded; duplicates kept out)
expand_mtus() {
  echo "$1" | tr ',' '\n' | while IFS=: read -r from to step; do
    [ -n "$from" ] || continue
    if [ -n "$to" ]; then seq "$from" "${step:-1}" "$to"; else echo "$from"; fi
  done | awk '!seen[$1]++'
}

# TCP RetransSegs of the root namespace (the sender)
retrans() {
  awk '/^Tcp: [A-Z]/ { for (i = 2; i <= NF; i++) n[i] = $i; next }
       /^Tcp: [0-9]/ { for (i = 2; i <= NF; i++) if (n[i] == "RetransSegs") print $i }' /proc/net/snmp
}

# frames the partner could not take: tally rx_missed + the netdev's RX errs/drop/fifo
# (/proc/net/dev inside the namespace: sysfs would show the root namespace)
partner_missed() {
  m=$(ns ethtool -S "$IFB" 2>/dev/null | awk '$1 == "rx_missed:" {print $2}')
  d=$(ns cat /proc/net/dev | awk -v i="$IFB:" '$1 == i {print $4 + $5 + $6}')
  echo $(( ${m:-0} + ${d:-0} ))
}

# every connection starts fresh: no ssthresh/cwnd cached from the previous one (both ends)
echo 1 >/proc/sys/net/ipv4/tcp_no_metrics_save
ns sh -c 'echo 1 >/proc/sys/net/ipv4/tcp_no_metrics_save'
# The partner receives the way a separate machine with interrupt moderation would: NAPI defers
# its interrupt re-enable twice and GRO flushes after 20 us (napi_defer_hard_irqs,
# gro_flush_timeout), so frames arriving 5-6 us apart are taken in batches and aggregated. Without
# it the one guest CPU, which runs the sender and this receiver, bounds every point below MTU ~900
# at ~720 Mbit/s (2026-12-05, 6.1: MTU 576 718 Mbit/s with the CPU 100 % busy, 727 with the
# deferral at 47 %). --arg partner_defer=off: the kernel's defaults.
partner_defer="${LAB_partner_defer:-2:20000}"
[ "$partner_defer" = off ] && partner_defer=""
if [ -n "$partner_defer" ]; then
  # the partner's netdev lives in its namespace: its sysfs directory shows in a sysfs mounted
  # from inside that namespace (a private mount namespace keeps the root's /sys as it is)
  ns unshare -m sh -c "mount -t sysfs sysfs /sys && echo ${partner_defer%%:*} >/sys/class/net/$IFB/napi_defer_hard_irqs && echo ${partner_defer#*:} >/sys/class/net/$IFB/gro_flush_timeout" ||
    lab_fail "partner: cannot set napi_defer_hard_irqs/gro_flush_timeout"
fi
if [ "$offloads" = tso ]; then
  ethtool -K "$IFA" sg on tso on tx on >/dev/null 2>&1 || lab_fail "ethtool -K $IFA sg on tso on tx on"
fi
feat="$(ethtool -k "$IFA" | awk -F': ' '
  $1 == "scatter-gather" {sg = $2} $1 == "tcp-segmentation-offload" {tso = $2}
  $1 == "tx-checksumming" {tx = $2} END {printf "sg=%s tso=%s tx=%s", sg, tso, tx}' | sed 's/ \[[^]]*\]//g')"
# TxConfig (0x40) byte 1, bits 10:8 = MXDMA. "hex on": r8169's dump is otherwise
# pretty-printed by ethtool, and the hex lines differ from the raw layout.
mxdma=$(ethtool -d "$IFA" hex on 2>/dev/null | awk '
  /^0x0040:/ { print (index("0123456789abcdef", tolower(substr($3, 2, 1))) - 1) % 8; f = 1 }
  END { if (!f) print -1 }')
[ "$mxdma" -ge 0 ] 2>/dev/null || lab_fail "cannot read TxConfig from ethtool -d $IFA hex on"
if [ "$mxdma" = 7 ]; then burst=unlimited; else burst=$((16 << mxdma)); fi
lab_result "kind=features $feat mxdma=$mxdma burst_bytes=$burst bytes=$bytes warmup=$warmup"
case "$feat" in *"tso=on"*) ;; *) [ "$offloads" = tso ] && lab_fail "TSO did not switch on ($feat)";; esac

point=0
port=5200
for mtu in $(expand_mtus "$mtus"); do
  point=$((point + 1))
  ip link set "$IFA" mtu "$mtu" || lab_fail "ip link set $IFA mtu $mtu"
  ns ip link set "$IFB" mtu "$mtu" || lab_fail "partner: ip link set $IFB mtu $mtu"
  rm -f /tmp/ready /tmp/recv.out /tmp/send.out
  ns rtl-traffic --timeout 60 --no-sha --no-verify --warmup "$warmup" --cpu \
    --ready-file /tmp/ready stream-recv "$port" >/tmp/recv.out 2>/tmp/recv.err &
  L=$!
  lab_wait_file /tmp/ready 100 || lab_fail "receiver not ready at MTU $mtu"
  r0=$(retrans)
  tx0="$(cat /sys/class/net/$IFA/statistics/tx_packets)"
  fr0=$(lab_stat tx_packets); rf0=$(lab_stat rx_packets); pm0=$(partner_missed)
  rtl-traffic --timeout 60 --no-sha stream-send 10.9.0.2 "$port" "$bytes" >/tmp/send.out 2>/tmp/send.err ||
    { cat /tmp/send.err; lab_fail "stream-send at MTU $mtu: $(cat /tmp/send.out)"; }
  wait $L
  grep -q 'status=ok' /tmp/recv.out || { cat /tmp/recv.err; lab_fail "stream-recv at MTU $mtu: $(cat /tmp/recv.out)"; }
  r1=$(retrans)
  fr1=$(lab_stat tx_packets); rf1=$(lab_stat rx_packets); pm1=$(partner_missed)
  # the device's own frame counter (tally) when the driver exports it, else the netdev's
  frames=$((fr1 - fr0))
  [ "$frames" -gt 0 ] || frames=$(( $(cat /sys/class/net/$IFA/statistics/tx_packets) - tx0 ))
  set -- $(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { print v["warm_mbps"], v["mbps"], v["busy_pct"], v["bytes"] }' /tmp/recv.out)
  ppf=$(awk -v b="$4" -v f="$frames" 'BEGIN { if (f > 0) printf "%.1f", b / f; else print "-" }')
  lab_result "kind=point point=$point mtu=$mtu mss=$((mtu - 40)) mxdma=$mxdma burst_bytes=$burst mbps=$1 total_mbps=$2 busy_pct=$3 retrans=$((r1 - r0)) partner_missed=$((pm1 - pm0)) tx_frames=$frames rx_frames=$((rf1 - rf0)) payload_per_frame=$ppf"
  port=$((port + 1))
done
lab_done
