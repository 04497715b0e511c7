# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "frames": the DUT receives full-size and jumbo frames.
# The guest scenarios move their bulk data over -netdev user, whose TCP segments here are about
# 1000 bytes and which answers no jumbo frame, so a driver that drops every full-size frame it
# receives (RxMaxSize programmed to 1500, a buffer sized for the MTU without the header) could
# pass them. Here both NICs are ours, on one hub: for MTU 1500 and for the largest of
# LAB_mtus (default "9000 6000 4000") that both drivers accept (r8169: 9000 on the 8168evl,
# 6122 on the 8168c), the partner
#   - pings the DUT with (MTU - 28)-byte payloads: every echo request is a full-size frame the
#     DUT receives, every reply one it sends (3/3 must come back);
#   - streams TCP to the DUT for LAB_ms (default 200) virtual ms (lab-tool send/recv): the DUT
#     must receive bytes, in frames whose mean size is at least 90 % of the MTU (rx_bytes /
#     rx_packets of the DUT: r8169 counts every received frame, before GRO).
# The DUT must count no receive error (rx_errors, rx_length_errors, rx_dropped) in the case.
# lab-programs: lab-tool
mtus="${LAB_mtus:-9000 6000 4000}"; ms="${LAB_ms:-200}"

st() { cat "/sys/class/net/$IFA/statistics/$1"; }
set_mtu() {  # set_mtu M: both NICs to MTU M (0 = refused by one of them; restores 1500)
  ip link set "$IFA" mtu "$1" 2>/dev/null && ns ip link set "$IFB" mtu "$1" 2>/dev/null && return 0
  ip link set "$IFA" mtu 1500; ns ip link set "$IFB" mtu 1500
  return 1
}

jumbo=""
for m in $mtus; do
  if set_mtu "$m"; then jumbo="$m"; break; fi
done
set_mtu 1500 || lab_fail "could not set MTU 1500 on both NICs"

bad=""
port=5100
for mtu in 1500 $jumbo; do
  set_mtu "$mtu" || lab_fail "could not set MTU $mtu on both NICs"
  lab_wait_link || lab_fail "no carrier after setting MTU $mtu"
  e0=$(($(st rx_errors) + $(st rx_length_errors) + $(st rx_dropped)))
  ns ping -c 1 -W 2 10.9.0.1 >/dev/null 2>&1  # neighbour entries
  got="$(ns ping -c 3 -i 0.2 -W 2 -s $((mtu - 28)) 10.9.0.1 2>/dev/null | sed -n 's/.* \([0-9]*\) packets received.*/\1/p')"
  p0=$(st rx_packets); b0=$(st rx_bytes)
  port=$((port + 1))
  rm -f /tmp/ready
  LAB_READY=/tmp/ready lab-tool recv "$port" "$ms" >/tmp/recv.out &
  R=$!
  lab_wait_file /tmp/ready 50 || lab_fail "receiver not ready (MTU $mtu)"
  ns lab-tool send 10.9.0.1 "$port" "$ms" >/tmp/send.out
  wait $R
  p=$(($(st rx_packets) - p0)); b=$(($(st rx_bytes) - b0))
  e=$(($(st rx_errors) + $(st rx_length_errors) + $(st rx_dropped) - e0))
  bytes="$(sed -n 's/.* bytes=\([0-9]*\).*/\1/p' /tmp/recv.out)"
  mbps="$(sed -n 's/.* mbps=\([0-9.]*\).*/\1/p' /tmp/recv.out)"
  mean=0; [ "$p" -gt 0 ] && mean=$((b / p))
  lab_result "mtu=$mtu ping=${got:-0}/3 stream_bytes=${bytes:-0} mbps=${mbps:-0} rx_frames=$p mean_frame=$mean rx_errors=$e"
  [ "${got:-0}" -eq 3 ] || bad="$bad; MTU $mtu: ${got:-0}/3 echo replies to $((mtu + 14))-byte frames"
  [ "${bytes:-0}" -gt 0 ] || bad="$bad; MTU $mtu: the TCP stream delivered nothing"
  [ "$mean" -ge $((mtu * 9 / 10)) ] || bad="$bad; MTU $mtu: mean received frame $mean bytes (< 90 % of the MTU)"
  [ "$e" -eq 0 ] || bad="$bad; MTU $mtu: $e receive errors/drops counted"
done
set_mtu 1500
lab_result "what=summary jumbo_mtu=${jumbo:-none}"
[ -z "$bad" ] || lab_fail "${bad#; }"
lab_done "full-size frames received at MTU 1500${jumbo:+ and $jumbo}"
