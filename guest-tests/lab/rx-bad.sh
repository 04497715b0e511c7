# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "rx-bad": frames with wrong checksums never reach a socket of the DUT.
# The partner builds frames by hand and sends them through a raw socket (craft-tool send), so
# no offload of its own NIC touches them: for each class, LAB_pairs (default 8) pairs of a good
# frame then a bad one, 1 ms apart, to the DUT's MAC:
#   ip4-hdr  UDP over IPv4 with a wrong IPv4 header checksum (the UDP checksum right)
#   udp4     UDP over IPv4 with a wrong UDP checksum     udp6  UDP over IPv6, wrong UDP checksum
#   tcp4     TCP SYN over IPv4 with a wrong TCP checksum tcp6  TCP SYN over IPv6, wrong checksum
# The DUT's sink (craft-tool sink: a UDP socket and a listening TCP socket on port 7000, IPv4
# and IPv6) must receive every good datagram and none of the bad ones; every good SYN must be
# answered (SYN-ACK, seen by the partner's raw socket) and no bad one. The chip flags the bad
# frames (RX descriptor IPF/UDPF/TCPF) and r8169 must then leave the checksum to the stack
# (CHECKSUM_NONE), which drops and counts them: Ip InHdrErrors, Udp InCsumErrors,
# Udp6InCsumErrors, Tcp InCsumErrors must each grow by at least the bad frames of their
# classes. A bad frame that reached a socket while the stack's counter did not grow was marked
# verified by the driver (CHECKSUM_UNNECESSARY against the chip's failure bits). A frame with a
# wrong checksum is not a receive error of the NIC: the driver counts none (rx_errors), and its
# rx_packets moves as the chip's own tally does (ethtool -S rx_packets, the model's counter).
# Wire errors: a NIC on the lab's hub pads every frame and the model's wire carries no FCS, so
# the DUT's chip makes them from frames of distinctive lengths the partner sends (craft-tool
# wire-send, EtherType 0x88b5): its fault schedule (lab-dut-props below, docs/FAULTS.md len=)
# turns every received frame of 1111 bytes into one with a bad FCS, of 1112 into a runt (cut to
# 32 bytes), of 1113 into one running past RxMaxSize. LAB_wire (default 6) of each, twice:
#   rx-all off  r8169 leaves RxConfig AcceptErr/AcceptRunt clear: the chip discards them all.
#               None reaches the DUT's packet socket (craft-tool wire-count), the driver's
#               rx_errors/rx_crc_errors/rx_length_errors stay, the tally's RxERR (ethtool -S
#               rx_errors) grows by all of them (the model's drop counters: scripts/repro/rx_bad.py)
#   rx-all on   ethtool -K rx-all on (NETIF_F_RXALL: AcceptErr|AcceptRunt): the chip writes each
#               with RxRES and RxCRC/RxRUNT/RxRWT; r8169 rtl_rx counts rx_errors for all,
#               rx_crc_errors for the bad FCS, rx_length_errors for the runts and the too long,
#               and delivers the bad-FCS frames and the runts (28 bytes) but not the too long
# lab-dut-props: faults=rx-bad-fcs:len=1111,,count=all;rx-runt:len=1112,,count=all;rx-too-long:len=1113,,count=all
# lab-programs: craft-tool
n="${LAB_pairs:-8}"; port=7000
classes="ip4-hdr udp4 udp6 tcp4 tcp6"
DUT_MAC=52:54:00:00:00:01

snmp() {  # snmp PROTO FIELD: the counter of /proc/net/snmp (this namespace)
  awk -v p="$1:" -v k="$2" '$1 == p { if (!h) { for (i = 2; i <= NF; i++) if ($i == k) c = i; h = 1 }
    else { print (c ? $c : 0); exit } }' /proc/net/snmp
}
snmp6() { awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' /proc/net/snmp6; }
st() { cat "/sys/class/net/$IFA/statistics/$1"; }
counters() {  # the stack's drop counters, the driver's and the chip's RX counts
  echo "hdr=$(snmp Ip InHdrErrors) udp=$(snmp Udp InCsumErrors) udp6=$(snmp6 Udp6InCsumErrors)" \
       "tcp=$(snmp Tcp InCsumErrors) rx=$(st rx_packets) rx_errors=$(st rx_errors)" \
       "tally_rx=$(lab_stat rx_packets)"
}
val() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# the counters at a quiet moment: two readings 100 ms apart that agree (nothing in flight)
quiet_counters() {
  a="$(counters)"
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    usleep 100000; b="$(counters)"; [ "$a" = "$b" ] && break; a="$b"
  done
  echo "$a"
}

# IPv6 on both ends, no duplicate address detection (the lab has no other host)
echo 0 >"/proc/sys/net/ipv6/conf/$IFA/accept_dad"
ns sh -c "echo 0 >/proc/sys/net/ipv6/conf/$IFB/accept_dad"
ip -6 addr add fd00:9::1/64 dev "$IFA" || lab_fail "ip -6 addr add on the DUT"
ns ip -6 addr add fd00:9::2/64 dev "$IFB" || lab_fail "ip -6 addr add on the partner"
guest_wait 30 ns ping -6 -c 1 -W 1 fd00:9::1 >/dev/null 2>&1 || lab_fail "no IPv6 ping to the DUT"

c0="$(quiet_counters)"
rm -f /tmp/ready
LAB_READY=/tmp/ready craft-tool sink "$port" 3000 >/tmp/sink.out &
S=$!
lab_wait_file /tmp/ready 50 || lab_fail "sink not ready"
for c in $classes; do
  ns craft-tool send "$IFB" "$DUT_MAC" "$c" "$n" "$port" 200 >"/tmp/craft-$c.out" ||
    lab_fail "craft-tool send $c: $(cat "/tmp/craft-$c.out")"
done
wait $S
c1="$(quiet_counters)"
cat /tmp/sink.out /tmp/craft-*.out

d() { echo $(( $(val "$c1" "$1") - $(val "$c0" "$1") )); }
sinkv() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" /tmp/sink.out; }
bad=""; leaked=""
for c in $classes; do
  sent="$(sed -n 's/.* sent=\([0-9]*\).*/\1/p' "/tmp/craft-$c.out")"
  case "$c" in
    tcp*) good="$(sed -n 's/.* answered_good=\([0-9]*\).*/\1/p' "/tmp/craft-$c.out")"
          badin="$(sed -n 's/.* answered_bad=\([0-9]*\).*/\1/p' "/tmp/craft-$c.out")";;
    *) good="$(sinkv "${c}_good")"; badin="$(sinkv "${c}_bad")";;
  esac
  case "$c" in
    ip4-hdr) counter=InHdrErrors; k=hdr; need=$n;;
    udp4) counter=UdpInCsumErrors; k=udp; need=$n;;
    udp6) counter=Udp6InCsumErrors; k=udp6; need=$n;;
    tcp*) counter=TcpInCsumErrors; k=tcp; need=$((2 * n));;   # tcp4 and tcp6 together
  esac
  lab_result "class=$c sent=${sent:-0} good_delivered=${good:-0}/$n bad_delivered=${badin:-0}/$n $counter=+$(d $k)"
  [ "${sent:-0}" -eq $((2 * n)) ] || bad="$bad; $c: the partner sent ${sent:-0} of $((2 * n)) frames"
  [ "${good:-0}" -eq "$n" ] || bad="$bad; $c: ${good:-0} of $n good frames reached the DUT's socket"
  [ "${badin:-0}" -eq 0 ] || leaked="$leaked, $c $badin/$n"
done
short=""
for k in hdr:InHdrErrors:$n udp:UdpInCsumErrors:$n udp6:Udp6InCsumErrors:$n tcp:TcpInCsumErrors:$((2 * n)); do
  key="${k%%:*}"; rest="${k#*:}"; name="${rest%%:*}"; need="${rest#*:}"
  [ "$(d "$key")" -ge "$need" ] || short="$short, $name +$(d "$key") (expected >= $need)"
done
if [ -n "$leaked" ]; then
  why="although the stack counted checksum errors"
  [ -n "$short" ] && why="the stack never checked them (${short#, }): the driver marked them verified, CHECKSUM_UNNECESSARY despite the chip's checksum-failure bits"
  bad="$bad; frames with a wrong checksum reached the DUT's socket (${leaked#, }): $why"
elif [ -n "$short" ]; then
  bad="$bad; the stack counted too few checksum errors: ${short#, }"
fi
rx=$(d rx); tally=$(d tally_rx); errs=$(d rx_errors)
lab_result "what=summary pairs=$n driver_rx=+$rx chip_rx=+$tally driver_rx_errors=+$errs"
[ "$errs" -eq 0 ] || bad="$bad; the driver counted $errs receive errors for frames the chip received whole"
[ "$rx" -eq "$tally" ] || bad="$bad; the driver counted $rx received frames, the chip's tally $tally"

# ---- wire errors (see the header) ----
w="${LAB_wire:-6}"
wire_counters() {
  echo "errors=$(st rx_errors) crc=$(st rx_crc_errors) length=$(st rx_length_errors)" \
       "tally_errors=$(lab_stat rx_errors)"
}
wire_round() {  # wire_round off|on: the three kinds sent, counted at both ends
  ethtool -K "$IFA" rx-all "$1" || lab_fail "ethtool -K $IFA rx-all $1"
  w0="$(wire_counters)"
  rm -f /tmp/wready
  LAB_READY=/tmp/wready craft-tool wire-count "$IFA" 3000 >"/tmp/wire-count-$1.out" &
  C=$!
  lab_wait_file /tmp/wready 50 || lab_fail "wire-count not ready"
  for kl in F:1111 R:1112 L:1113; do
    ns craft-tool wire-send "$IFB" "$DUT_MAC" "${kl%%:*}" "${kl#*:}" "$w" >>"/tmp/wire-send-$1.out" ||
      lab_fail "craft-tool wire-send $kl: $(cat "/tmp/wire-send-$1.out")"
  done
  wait $C
  usleep 200000
  w1="$(wire_counters)"
  cat "/tmp/wire-count-$1.out" "/tmp/wire-send-$1.out"
  wd() { echo $(( $(val "$w1" "$1") - $(val "$w0" "$1") )); }
  got_f="$(sed -n 's/.* wire_F=\([0-9]*\).*/\1/p' "/tmp/wire-count-$1.out")"
  got_r="$(sed -n 's/.* wire_R=\([0-9]*\).*/\1/p' "/tmp/wire-count-$1.out")"
  got_l="$(sed -n 's/.* wire_L=\([0-9]*\).*/\1/p' "/tmp/wire-count-$1.out")"
  sent="$(sed -n 's/.* sent=\([0-9]*\).*/\1/p' "/tmp/wire-send-$1.out" | awk '{ s += $1 } END { print s + 0 }')"
  lab_result "what=wire rx_all=$1 per_kind=$w sent=$sent delivered_fcs=${got_f:-0} delivered_runt=${got_r:-0}" \
             "delivered_long=${got_l:-0} rx_errors=+$(wd errors) rx_crc_errors=+$(wd crc)" \
             "rx_length_errors=+$(wd length) tally_rx_errors=+$(wd tally_errors)"
  [ "$sent" -eq $((3 * w)) ] || bad="$bad; wire errors, rx-all $1: the partner sent $sent of $((3 * w)) frames"
  # the tally's RxERR counts every frame with a wire error, taken or discarded (the chip's count)
  [ "$(wd tally_errors)" -eq $((3 * w)) ] ||
    bad="$bad; wire errors, rx-all $1: the chip's tally counted $(wd tally_errors) receive errors (RxERR) of $((3 * w)) frames"
  e_err=0; e_crc=0; e_len=0; e_f=0; e_r=0   # rx-all off: the driver sees none of them
  [ "$1" = on ] && { e_err=$((3 * w)); e_crc=$w; e_len=$((2 * w)); e_f=$w; e_r=$w; }
  pre="wire errors, rx-all $1"
  [ "${got_f:-0}" -eq "$e_f" ] && [ "${got_r:-0}" -eq "$e_r" ] && [ "${got_l:-0}" -eq 0 ] ||
    bad="$bad; $pre: the DUT's packet socket got ${got_f:-0} bad-FCS frames of $e_f, ${got_r:-0} runts of $e_r, ${got_l:-0} too long of 0"
  [ "$(wd errors)" -eq "$e_err" ] ||
    bad="$bad; $pre: rx_errors +$(wd errors) where the chip reported $e_err frames with RxRES"
  [ "$(wd crc)" -eq "$e_crc" ] ||
    bad="$bad; $pre: rx_crc_errors +$(wd crc) where the chip reported $e_crc frames with RxCRC"
  [ "$(wd length)" -eq "$e_len" ] ||
    bad="$bad; $pre: rx_length_errors +$(wd length) where the chip reported $e_len frames with RxRUNT or RxRWT"
}
wire_round off
wire_round on
ethtool -K "$IFA" rx-all off || lab_fail "ethtool -K $IFA rx-all off"
[ -z "$bad" ] || lab_fail "${bad#; }"
lab_done "every frame with a wrong checksum dropped and counted by the stack, every good one delivered ($n pairs x 5 classes); every wire error ($w per kind) counted as the chip reported it, with rx-all off and on"
