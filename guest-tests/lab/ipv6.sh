# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "ipv6": IPv6 both ways through the DUT, with its TX checksum offload, SG and TSO on
# (r8169: NETIF_F_IPV6_CSUM and TSO6 through the v2 descriptor, TD1_IPv6_CS / TD1_GTSENV6), then
# off (ethtool -K), every byte checked by the receiving end. The partner verifies checksums in
# software (ethtool -K rx off on its NIC: its own driver's RX checksum path, which runs the same
# module under test, cannot hide a bad checksum the DUT sent). In each phase:
#   - TCP, DUT -> partner, LAB_bytes (default 2 MiB) of a pattern the partner checks byte by
#     byte (verify-tool tcp-recv); with TSO on the DUT hands the chip super-frames (its driver
#     counts TX packets per skb, the chip's tally per frame on the wire: with TSO on the wire
#     must carry at least twice the frames the driver queued, with it off as many), and every
#     segment that arrives at the partner is full-sized and verifies (TcpInCsumErrors 0);
#   - TCP, partner -> DUT, the same amount checked by the DUT;
#   - UDP both ways, 200 datagrams of 1200 bytes each (UDP over IPv6 with the checksum
#     offloaded when tx is on), each checked, none lost;
#   - ICMPv6 echo both ways, 1452-byte payloads (1500-byte packets), 3/3 replies.
# lab-programs: verify-tool
bytes="${LAB_bytes:-2097152}"; ms="${LAB_ms:-3000}"
DUT6=fd00:9::1; PARTNER6=fd00:9::2

st() { cat "/sys/class/net/$IFA/statistics/$1"; }
# the partner's RX frames / bytes (/proc/net/dev of its namespace: sysfs shows the root's)
nsv() { ns cat /proc/net/dev | awk -v i="$IFB:" -v f="$1" '$1 == i { print (f == "rx_bytes" ? $2 : $3) }'; }
csum_errs() {  # TcpInCsumErrors + Udp6InCsumErrors of the namespace whose files are on stdin
  awk '$1 == "Tcp:" { if (!h) { for (i = 2; i <= NF; i++) if ($i == "InCsumErrors") c = i; h = 1 } else t = $c }
       $1 == "Udp6InCsumErrors" { u = $2 } END { print t + u }'
}
field() { sed -n "s/.* $1=\([-0-9]*\).*/\1/p" "$2"; }

echo 0 >"/proc/sys/net/ipv6/conf/$IFA/accept_dad"
ns sh -c "echo 0 >/proc/sys/net/ipv6/conf/$IFB/accept_dad"
ip -6 addr add "$DUT6/64" dev "$IFA" || lab_fail "ip -6 addr add on the DUT"
ns ip -6 addr add "$PARTNER6/64" dev "$IFB" || lab_fail "ip -6 addr add on the partner"
ns ethtool -K "$IFB" rx off >/dev/null 2>&1 || lab_fail "ethtool -K $IFB rx off (partner)"
guest_wait 30 ping -6 -c 1 -W 1 "$PARTNER6" >/dev/null 2>&1 || lab_fail "no IPv6 ping to the partner"

bad=""
port=5300
for phase in on off; do
  ethtool -K "$IFA" tx "$phase" sg "$phase" tso "$phase" >/dev/null 2>&1 ||
    lab_fail "ethtool -K $IFA tx/sg/tso $phase"
  k="$(ethtool -k "$IFA")"
  tso6="$(echo "$k" | sed -n 's/^[[:space:]]*tx-tcp6-segmentation: \([a-z]*\).*/\1/p')"
  csum6="$(echo "$k" | sed -n 's/^[[:space:]]*tx-checksum-ipv6: \([a-z]*\).*/\1/p')"
  if [ "$phase" = on ]; then
    [ "$tso6" = on ] || lab_fail "the DUT's driver does not offer TSO6 (tx-tcp6-segmentation: ${tso6:-absent})"
    [ "$csum6" = on ] || lab_fail "the DUT's driver does not offer IPv6 checksum offload (tx-checksum-ipv6: ${csum6:-absent})"
  fi
  e0=$(ns cat /proc/net/snmp /proc/net/snmp6 | csum_errs); de0=$(cat /proc/net/snmp /proc/net/snmp6 | csum_errs)

  # TCP DUT -> partner
  port=$((port + 1)); rm -f /tmp/ready
  ns env LAB_READY=/tmp/ready verify-tool tcp-recv "$port" "$bytes" "$ms" >/tmp/recv.out &
  R=$!
  lab_wait_file /tmp/ready 50 || lab_fail "partner receiver not ready"
  skb0=$(st tx_packets); wire0=$(lab_stat tx_packets); prx0=$(nsv rx_packets); prb0=$(nsv rx_bytes)
  verify-tool tcp-send "$PARTNER6" "$port" "$bytes" "$ms" >/tmp/send.out
  wait $R
  skbs=$(($(st tx_packets) - skb0)); wire=$(($(lab_stat tx_packets) - wire0))
  prx=$(($(nsv rx_packets) - prx0)); prb=$(($(nsv rx_bytes) - prb0))
  got=$(field bytes /tmp/recv.out); nbad=$(field bad /tmp/recv.out); first=$(field first_bad /tmp/recv.out)
  mean=0; [ "$prx" -gt 0 ] && mean=$((prb / prx))
  lab_result "phase=$phase dir=dut-to-partner proto=tcp6 bytes=${got:-0}/$bytes bad=${nbad:-?} first_bad=${first:-?} driver_tx_packets=$skbs wire_frames=$wire partner_rx_frames=$prx partner_mean_frame=$mean"
  [ "${got:-0}" -eq "$bytes" ] && [ "${nbad:-1}" -eq 0 ] ||
    bad="$bad; tso/csum $phase: TCP over IPv6 DUT->partner delivered ${got:-0} of $bytes bytes$( [ "${nbad:-0}" -gt 0 ] && echo ", $nbad wrong (the first at offset $first)")"
  if [ "$phase" = on ]; then
    [ "$wire" -ge $((2 * skbs)) ] ||
      bad="$bad; tso on: $wire frames on the wire for $skbs packets the driver queued (no TSO6 in effect)"
  else
    [ "$wire" -le $((skbs + skbs / 10 + 8)) ] ||
      bad="$bad; tso off: $wire frames on the wire for $skbs packets the driver queued"
  fi
  [ "${got:-0}" -lt "$bytes" ] || [ "$mean" -ge 1400 ] ||
    bad="$bad; tso/csum $phase: the partner received frames of $mean bytes on average (segments not full-sized)"

  # TCP partner -> DUT
  port=$((port + 1)); rm -f /tmp/ready
  LAB_READY=/tmp/ready verify-tool tcp-recv "$port" "$bytes" "$ms" >/tmp/recv.out &
  R=$!
  lab_wait_file /tmp/ready 50 || lab_fail "DUT receiver not ready"
  ns verify-tool tcp-send "$DUT6" "$port" "$bytes" "$ms" >/tmp/send.out
  wait $R
  got=$(field bytes /tmp/recv.out); nbad=$(field bad /tmp/recv.out)
  lab_result "phase=$phase dir=partner-to-dut proto=tcp6 bytes=${got:-0}/$bytes bad=${nbad:-?}"
  [ "${got:-0}" -eq "$bytes" ] && [ "${nbad:-1}" -eq 0 ] ||
    bad="$bad; tso/csum $phase: TCP over IPv6 partner->DUT delivered ${got:-0} of $bytes bytes$( [ "${nbad:-0}" -gt 0 ] && echo ", $nbad wrong")"

  # UDP both ways
  for dir in dut-to-partner partner-to-dut; do
    port=$((port + 1)); rm -f /tmp/ready
    if [ "$dir" = dut-to-partner ]; then
      ns env LAB_READY=/tmp/ready verify-tool udp-recv "$port" 200 "$ms" >/tmp/urecv.out &
      R=$!
      lab_wait_file /tmp/ready 50 || lab_fail "UDP receiver not ready"
      verify-tool udp-send "$PARTNER6" "$port" 200 1200 >/dev/null
    else
      LAB_READY=/tmp/ready verify-tool udp-recv "$port" 200 "$ms" >/tmp/urecv.out &
      R=$!
      lab_wait_file /tmp/ready 50 || lab_fail "UDP receiver not ready"
      ns verify-tool udp-send "$DUT6" "$port" 200 1200 >/dev/null
    fi
    wait $R
    ug=$(field got /tmp/urecv.out); ub=$(field bad /tmp/urecv.out)
    lab_result "phase=$phase dir=$dir proto=udp6 got=${ug:-0}/200 bad=${ub:-?}"
    [ "${ug:-0}" -eq 200 ] && [ "${ub:-1}" -eq 0 ] ||
      bad="$bad; tso/csum $phase: UDP over IPv6 $dir: ${ug:-0} of 200 datagrams intact, ${ub:-?} wrong"
  done

  # ICMPv6 both ways
  p1="$(ping -6 -c 3 -i 0.2 -W 2 -s 1452 "$PARTNER6" 2>/dev/null | sed -n 's/.* \([0-9]*\) packets received.*/\1/p')"
  p2="$(ns ping -6 -c 3 -i 0.2 -W 2 -s 1452 "$DUT6" 2>/dev/null | sed -n 's/.* \([0-9]*\) packets received.*/\1/p')"
  e1=$(ns cat /proc/net/snmp /proc/net/snmp6 | csum_errs); de1=$(cat /proc/net/snmp /proc/net/snmp6 | csum_errs)
  lab_result "phase=$phase proto=icmp6 dut_to_partner=${p1:-0}/3 partner_to_dut=${p2:-0}/3 partner_csum_errors=$((e1 - e0)) dut_csum_errors=$((de1 - de0))"
  [ "${p1:-0}" -eq 3 ] && [ "${p2:-0}" -eq 3 ] ||
    bad="$bad; tso/csum $phase: ICMPv6 echo ${p1:-0}/3 DUT->partner, ${p2:-0}/3 partner->DUT"
  [ $((e1 - e0)) -eq 0 ] ||
    bad="$bad; tso/csum $phase: the partner's stack counted $((e1 - e0)) TCP/UDP checksum errors in what the DUT sent"
done
ethtool -K "$IFA" tx on sg off tso off >/dev/null 2>&1
[ -z "$bad" ] || lab_fail "${bad#; }"
lab_done "IPv6 TCP/UDP/ICMPv6 both ways verified with TX checksum offload + TSO6 on and off"
