# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "rx-filter": the DUT's receive address filter (r8169 rtl_set_rx_mode: RxConfig
# AcceptMyPhys/AcceptMulticast/AcceptAllPhys and the 64-bit multicast hash in MAR0-7). The DUT
# joins the IPv4 group 239.1.1.1 (filter-tool sink); the partner sends, through a raw socket,
# LAB_count (default 8) UDP datagrams of each kind to port 7100:
#   mine       to the DUT's MAC and address           must reach the stack and the socket
#   other      to another unicast MAC (…:99), the DUT's address   must not reach the stack
#   joined     to 01:00:5e:01:01:01 / 239.1.1.1       must reach the stack and the socket
#   notjoined  to a group whose hash bit no address of the DUT sets (filter-tool mcast-free)
#                                                     must not reach the stack
# "Reaches the stack" is what an AF_PACKET socket on the DUT sees (filter-tool capture: every
# frame the driver handed up, for this host or not). Then the same with the DUT in promiscuous
# mode (ip link set promisc on): every kind reaches the stack (other and notjoined still reach
# no socket: IP drops them). In each phase the driver's RX and multicast counts move as the
# chip's tally does (ethtool -S rx_packets, multicast: the model's counters), and the frames the
# chip filtered out are the model's rx_dropped_filter (checked on the host from x-stats).
# lab-programs: filter-tool
n="${LAB_count:-8}"; port=7100
DUT_MAC=52:54:00:00:00:01
st() { cat "/sys/class/net/$IFA/statistics/$1"; }
counters() { echo "rx=$(st rx_packets) mc=$(st multicast) tally_rx=$(lab_stat rx_packets) tally_mc=$(lab_stat multicast)"; }
val() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
quiet_counters() {  # two readings 100 ms apart that agree: nothing in flight
  a="$(counters)"
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    usleep 100000; b="$(counters)"; [ "$a" = "$b" ] && break; a="$b"
  done
  echo "$a"
}
count() { v="$(sed -n "s/.* $1=\([0-9]*\).*/\1/p" "$2")"; echo "${v:-0}"; }

bad=""
for phase in filter promisc; do
  if [ "$phase" = promisc ]; then ip link set "$IFA" promisc on || lab_fail "promisc on"; fi
  rm -f /tmp/ready-s /tmp/ready-c
  LAB_READY=/tmp/ready-s filter-tool sink "$port" 2500 239.1.1.1 >/tmp/sink.out &
  S=$!
  LAB_READY=/tmp/ready-c filter-tool capture "$IFA" 2500 >/tmp/cap.out &
  C=$!
  lab_wait_file /tmp/ready-s 50 && lab_wait_file /tmp/ready-c 50 || lab_fail "sink/capture not ready"
  free="$(filter-tool mcast-free "$IFA")" || lab_fail "no free multicast hash bit: $free"
  group="${free%% *}"; rest="${free#* }"; gmac="${rest%% *}"
  c0="$(quiet_counters)"
  ns filter-tool send "$IFB" "$DUT_MAC" 10.9.0.1 "$port" mine "$n" >/dev/null
  ns filter-tool send "$IFB" 52:54:00:00:00:99 10.9.0.1 "$port" other "$n" >/dev/null
  ns filter-tool send "$IFB" 01:00:5e:01:01:01 239.1.1.1 "$port" joined "$n" >/dev/null
  ns filter-tool send "$IFB" "$gmac" "$group" "$port" notjoined "$n" >/dev/null
  wait $S $C
  c1="$(quiet_counters)"
  d() { echo $(( $(val "$c1" "$1") - $(val "$c0" "$1") )); }
  lab_result "phase=$phase notjoined_group=$group hash_bit=${rest#* }" \
    "stack=mine:$(count mine /tmp/cap.out),other:$(count other /tmp/cap.out),joined:$(count joined /tmp/cap.out),notjoined:$(count notjoined /tmp/cap.out)" \
    "socket=mine:$(count mine /tmp/sink.out),joined:$(count joined /tmp/sink.out),other:$(count other /tmp/sink.out),notjoined:$(count notjoined /tmp/sink.out)" \
    "driver_rx=+$(d rx) chip_rx=+$(d tally_rx) driver_multicast=+$(d mc) chip_multicast=+$(d tally_mc)"
  for k in mine joined; do
    [ "$(count $k /tmp/cap.out)" -eq "$n" ] || bad="$bad; $phase: $(count $k /tmp/cap.out) of $n frames '$k' reached the DUT's stack"
    [ "$(count $k /tmp/sink.out)" -eq "$n" ] || bad="$bad; $phase: $(count $k /tmp/sink.out) of $n datagrams '$k' reached the DUT's socket"
  done
  for k in other notjoined; do
    want=0; [ "$phase" = promisc ] && want="$n"
    [ "$(count $k /tmp/cap.out)" -eq "$want" ] ||
      bad="$bad; $phase: $(count $k /tmp/cap.out) of $n frames '$k' ($( [ $k = other ] && echo "to 52:54:00:00:00:99" || echo "to $gmac, group $group not joined")) reached the DUT's stack, expected $want"
    [ "$(count $k /tmp/sink.out)" -eq 0 ] || bad="$bad; $phase: $(count $k /tmp/sink.out) datagrams '$k' reached the DUT's socket"
  done
  [ "$(d rx)" -eq "$(d tally_rx)" ] || bad="$bad; $phase: the driver counted $(d rx) received frames, the chip's tally $(d tally_rx)"
  [ "$(d mc)" -eq "$(d tally_mc)" ] || bad="$bad; $phase: the driver counted $(d mc) multicast frames, the chip's tally $(d tally_mc)"
done
ip link set "$IFA" promisc off
[ -z "$bad" ] || lab_fail "${bad#; }"
lab_done "unicast/multicast filter and promiscuous mode: $n frames of each kind where they belong"
