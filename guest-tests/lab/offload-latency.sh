# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "offload-latency" (episode offload-latency, docs/HISTORY.md section 4, 2019): latency
# of 64 KiB messages sent by the DUT, for combinations of SG / TSO / TX checksum offload
# switched with ethtool -K on the DUT (the kernel's TCP stack builds GSO packets whatever the
# device offers -- "GSO always on" since 4.17 -- so without SG/TSO they are segmented, and
# without SG linearized, in software on the guest's one CPU).
#   --arg combos=off:off:on,on:on:on   comma list of SG:TSO:TX (on|off) combinations, in order;
#                                      "default" = the driver's own choice (measure it first)
#   --arg count=120 --arg skip=20      TCP_RR transactions per combination / left out of the
#                                      statistics (slow start)
#   --arg req=65536 --arg resp=64      request size (DUT -> partner) and response size
#   --arg stream=4M                    per combination also a TCP stream of this size in
#                                      64 KiB write()s with per-write latency (netperf omni
#                                      send); 0 = no stream
# RESULT lines, one per combination:
#   RESULT case=offload-latency kind=combo combo=SG:TSO:TX sg= tso= tx= (features in force)
#          mean_us= stddev_us= p50_us= p99_us= max_us= tps= transactions= skipped=
#          send_mean_us= send_stddev_us= send_p99_us= stream_mbps= busy_pct=
#          tx_frames= tx_bytes_per_frame= (DUT NIC counters over the rr run)
combos="${LAB_combos:-off:off:on,on:on:on}"
count="${LAB_count:-120}"
skip="${LAB_skip:-20}"
req="${LAB_req:-65536}"
resp="${LAB_resp:-64}"
stream="${LAB_stream:-4M}"

rtl-traffic --help 2>&1 | grep -q -- '--skip' ||
  lab_fail "rtl-traffic in the guest has no --skip (rebuild: scripts/run-lab builds it from guest-tests/programs)"

features() {
  ethtool -k "$IFA" | awk -F': ' '
    $1 == "scatter-gather" {sg = $2} $1 == "tcp-segmentation-offload" {tso = $2}
    $1 == "tx-checksumming" {tx = $2} $1 == "generic-segmentation-offload" {gso = $2}
    END {printf "sg=%s tso=%s tx=%s gso=%s", sg, tso, tx, gso}' | sed 's/ \[[^]]*\]//g'
}
# "k=v k=v" of the last RESULT line in a file -> value of key $2 ("-" when absent)
field() { awk -v k="$2" '{ for (i = 1; i <= NF; i++) { n = index($i, "="); if (substr($i, 1, n - 1) == k) v = substr($i, n + 1) } } END { print (v == "" ? "-" : v) }' "$1"; }
us() { awk -v v="$1" 'BEGIN { if (v == "-" || v == "") print "-"; else printf "%.1f", v / 1000 }'; }

# every connection starts fresh: no ssthresh/cwnd cached from the previous one (both ends)
echo 1 >/proc/sys/net/ipv4/tcp_no_metrics_save
ns sh -c 'echo 1 >/proc/sys/net/ipv4/tcp_no_metrics_save'
lab_result "kind=setup $(features) combos=$combos count=$count skip=$skip req=$req resp=$resp stream=$stream"
port=5400
for combo in $(echo "$combos" | tr ',' ' '); do
  sg="${combo%%:*}"; rest="${combo#*:}"; tso="${rest%%:*}"; tx="${rest#*:}"
  # order matters: SG needs a checksum feature, TSO needs SG; "default" = as the driver set it
  if [ "$combo" = default ]; then
    :
  elif [ "$sg" = on ]; then
    ethtool -K "$IFA" tx "$tx" >/dev/null 2>&1; ethtool -K "$IFA" sg on >/dev/null 2>&1
    ethtool -K "$IFA" tso "$tso" >/dev/null 2>&1
  else
    ethtool -K "$IFA" tso off >/dev/null 2>&1; ethtool -K "$IFA" sg off >/dev/null 2>&1
    ethtool -K "$IFA" tx "$tx" >/dev/null 2>&1
  fi
  feat="$(features)"
  # TCP_RR: the DUT is the client and sends the 64 KiB requests
  rm -f /tmp/ready
  ns rtl-traffic --timeout 120 --ready-file /tmp/ready rr-server "$port" >/tmp/rrs.out 2>/tmp/rrs.err &
  L=$!
  lab_wait_file /tmp/ready 100 || lab_fail "rr server not ready ($combo)"
  f0=$(lab_stat tx_packets); b0="$(cat /sys/class/net/$IFA/statistics/tx_bytes)"
  rtl-traffic --timeout 120 --skip "$skip" rr 10.9.0.2 "$port" "$req" "$resp" "$count" >/tmp/rr.out 2>/tmp/rr.err ||
    { cat /tmp/rr.err; lab_fail "rr ($combo): $(cat /tmp/rr.out)"; }
  f1=$(lab_stat tx_packets); b1="$(cat /sys/class/net/$IFA/statistics/tx_bytes)"
  wait $L
  port=$((port + 1))
  frames=$((f1 - f0))
  bpf=$(awk -v b="$((b1 - b0))" -v f="$frames" 'BEGIN { if (f > 0) printf "%.0f", b / f; else print "-" }')
  # netperf-omni-send analogue: per-write() latency of 64 KiB writes in a stream
  smean=- ssd=- sp99=- smbps=- busy=-
  if [ "$stream" != 0 ]; then
    rm -f /tmp/ready
    ns rtl-traffic --timeout 120 --no-sha --no-verify --ready-file /tmp/ready stream-recv "$port" >/tmp/recv.out 2>&1 &
    L=$!
    lab_wait_file /tmp/ready 100 || lab_fail "stream receiver not ready ($combo)"
    rtl-traffic --timeout 120 --no-sha --cpu --write-size 65536 --warmup 1M stream-send 10.9.0.2 "$port" "$stream" \
      >/tmp/send.out 2>/tmp/send.err || { cat /tmp/send.err; lab_fail "stream ($combo): $(cat /tmp/send.out)"; }
    wait $L
    port=$((port + 1))
    smean=$(us "$(field /tmp/send.out wmean_ns)"); ssd=$(us "$(field /tmp/send.out wstddev_ns)")
    sp99=$(us "$(field /tmp/send.out wp99_ns)"); smbps=$(field /tmp/send.out mbps); busy=$(field /tmp/send.out busy_pct)
  fi
  lab_result "kind=combo combo=$combo $feat mean_us=$(us "$(field /tmp/rr.out mean_ns)") stddev_us=$(us "$(field /tmp/rr.out stddev_ns)") p50_us=$(us "$(field /tmp/rr.out p50_ns)") p99_us=$(us "$(field /tmp/rr.out p99_ns)") max_us=$(us "$(field /tmp/rr.out max_ns)") tps=$(field /tmp/rr.out tps) transactions=$(field /tmp/rr.out transactions) skipped=$(field /tmp/rr.out skipped) send_mean_us=$smean send_stddev_us=$ssd send_p99_us=$sp99 stream_mbps=$smbps busy_pct=$busy tx_frames=$frames tx_bytes_per_frame=$bpf"
done
lab_done
