# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "vlan": 802.1Q through the DUT with the chip inserting and stripping the tag
# (ethtool -K txvlan/rxvlan on: r8169 puts swab16(TCI) in the TX descriptor's opts2 and reads
# it back from the RX descriptor's) and with the stack doing it (off), the tag checked on the
# other end. Both NICs run the module under test, so in each phase exactly one end of each
# direction uses the chip's VLAN offload and the other end's stack reads or writes the tag
# bytes itself: a driver that gets the tag wrong in both directions cannot cancel itself out.
#   phase dut-hw: DUT txvlan on rxvlan on,  partner txvlan off rxvlan off
#   phase dut-sw: DUT txvlan off rxvlan off, partner txvlan on rxvlan on
# VLAN 291 (0x123) on both ends (vconfig), egress priority 5, so every tagged frame must carry
# TCI 0xa123 (a byte-swapped tag reads 0x23a1). In each phase both ends capture every frame
# from the other (verify-tool vlan-cap: the TCI from PACKET_AUXDATA, i.e. the one the receiving
# stack or driver reported), while traffic runs over the VLAN interfaces both ways: 3 pings of
# 1400 bytes each way and LAB_bytes (default 1 MiB) of TCP each way, every byte checked.
# Every tagged frame seen must carry 0xa123, at least 10 each way.
# lab-programs: verify-tool
# lab-modules: 8021q
bytes="${LAB_bytes:-1048576}"; cap_ms="${LAB_cap_ms:-3000}"
VID=291; TCI=0xa123
DUT_MAC=52:54:00:00:00:01; PARTNER_MAC=52:54:00:00:00:02
VA="$IFA.$VID"; VB="$IFB.$VID"
field() { sed -n "s/.* $1=\([-0-9a-fx:,]*\).*/\1/p" "$2"; }

lab_load_modules 8021q
# no IPv6 on the VLAN interfaces: only the traffic below is tagged
echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6
ns sh -c "echo 1 >/proc/sys/net/ipv6/conf/default/disable_ipv6"
vconfig add "$IFA" "$VID" >/dev/null || lab_fail "vconfig add $IFA $VID"
ns vconfig add "$IFB" "$VID" >/dev/null || lab_fail "vconfig add $IFB $VID (partner)"
vconfig set_egress_map "$VA" 0 5 >/dev/null || lab_fail "vconfig set_egress_map $VA"
ns vconfig set_egress_map "$VB" 0 5 >/dev/null || lab_fail "vconfig set_egress_map $VB"
ip addr add 10.10.0.1/24 dev "$VA"; ip link set "$VA" up
ns ip addr add 10.10.0.2/24 dev "$VB"; ns ip link set "$VB" up

tagbad=""; trafbad=""
port=5400
for phase in dut-hw dut-sw; do
  if [ "$phase" = dut-hw ]; then a=on; b=off; else a=off; b=on; fi
  ethtool -K "$IFA" txvlan "$a" rxvlan "$a" >/dev/null 2>&1 || lab_fail "ethtool -K $IFA txvlan/rxvlan $a"
  ns ethtool -K "$IFB" txvlan "$b" rxvlan "$b" >/dev/null 2>&1 || lab_fail "ethtool -K $IFB txvlan/rxvlan $b (partner)"
  for f in tx-vlan-offload rx-vlan-offload; do   # what the DUT's driver reports in force
    ethtool -k "$IFA" | grep -q "^$f: $a" ||
      lab_fail "the DUT's $f is not $a after ethtool -K ($(ethtool -k "$IFA" | grep "^$f"))"
  done
  rm -f /tmp/ready-a /tmp/ready-b
  LAB_READY=/tmp/ready-a verify-tool vlan-cap "$IFA" "$PARTNER_MAC" "$cap_ms" >/tmp/cap-dut.out &
  CA=$!
  ns env LAB_READY=/tmp/ready-b verify-tool vlan-cap "$IFB" "$DUT_MAC" "$cap_ms" >/tmp/cap-partner.out &
  CB=$!
  lab_wait_file /tmp/ready-a 50 && lab_wait_file /tmp/ready-b 50 || lab_fail "captures not ready"
  p1="$(ping -c 3 -i 0.2 -W 2 -s 1400 10.10.0.2 2>/dev/null | sed -n 's/.* \([0-9]*\) packets received.*/\1/p')"
  p2="$(ns ping -c 3 -i 0.2 -W 2 -s 1400 10.10.0.1 2>/dev/null | sed -n 's/.* \([0-9]*\) packets received.*/\1/p')"
  streams=""
  for dir in dut-to-partner partner-to-dut; do
    port=$((port + 1)); rm -f /tmp/ready
    if [ "$dir" = dut-to-partner ]; then
      ns env LAB_READY=/tmp/ready verify-tool tcp-recv "$port" "$bytes" 1500 >/tmp/recv.out &
      R=$!
      lab_wait_file /tmp/ready 50 || lab_fail "receiver not ready"
      verify-tool tcp-send 10.10.0.2 "$port" "$bytes" 1500 >/dev/null
    else
      LAB_READY=/tmp/ready verify-tool tcp-recv "$port" "$bytes" 1500 >/tmp/recv.out &
      R=$!
      lab_wait_file /tmp/ready 50 || lab_fail "receiver not ready"
      ns verify-tool tcp-send 10.10.0.1 "$port" "$bytes" 1500 >/dev/null
    fi
    wait $R
    got=$(field bytes /tmp/recv.out); nbad=$(field bad /tmp/recv.out)
    lab_result "phase=$phase dir=$dir proto=tcp-over-vlan bytes=${got:-0}/$bytes bad=${nbad:-?}"
    [ "${got:-0}" -eq "$bytes" ] && [ "${nbad:-1}" -eq 0 ] ||
      streams="$streams, TCP $dir ${got:-0}/$bytes bytes$(case "${nbad:-0}" in 0|*[!0-9]*) ;; *) echo " ($nbad wrong)";; esac)"
  done
  wait $CA $CB
  lab_result "phase=$phase proto=icmp-over-vlan dut_to_partner=${p1:-0}/3 partner_to_dut=${p2:-0}/3"
  [ "${p1:-0}" -eq 3 ] || streams="$streams, ping DUT->partner ${p1:-0}/3"
  [ "${p2:-0}" -eq 3 ] || streams="$streams, ping partner->DUT ${p2:-0}/3"
  [ -z "$streams" ] || trafbad="$trafbad; $phase: over VLAN $VID ${streams#, }"
  for end in dut partner; do
    t=$(field tagged "/tmp/cap-$end.out"); tcis=$(field tcis "/tmp/cap-$end.out")
    lab_result "phase=$phase capture=$end tagged=${t:-0} untagged=$(field untagged "/tmp/cap-$end.out") tcis=${tcis:-none}"
    if [ "$end" = partner ]; then
      who="the frames the DUT tagged ($( [ "$a" = on ] && echo "the chip inserting, txvlan on" || echo "its stack, txvlan off")), read by the partner's $( [ "$b" = on ] && echo "driver, rxvlan on" || echo "stack, rxvlan off")"
    else
      who="the frames the partner tagged ($( [ "$b" = on ] && echo "the chip inserting" || echo "its stack")), read by the DUT's $( [ "$a" = on ] && echo "driver from the chip's RX descriptor, rxvlan on" || echo "stack, rxvlan off")"
    fi
    wrong="$(echo "${tcis:-}" | tr ',' '\n' | grep -v "^$TCI:" | grep -v '^$' | sed 's/:\(.*\)/ (x\1)/' | tr '\n' ',')"
    if [ -n "$wrong" ]; then
      tagbad="$tagbad; $phase: TCI ${wrong%,} where $TCI was sent, in $who"
    elif [ "${t:-0}" -lt 10 ]; then
      trafbad="$trafbad; $phase: only ${t:-0} tagged frames in $who"
    fi
  done
done
ethtool -K "$IFA" txvlan on rxvlan on >/dev/null 2>&1
[ -z "$tagbad" ] || lab_fail "${tagbad#; }${trafbad:+ (so:${trafbad#;})}"
[ -z "$trafbad" ] || lab_fail "${trafbad#; }"
lab_done "VLAN $VID both ways, tag $TCI checked at the other end, chip VLAN offload on and off"
