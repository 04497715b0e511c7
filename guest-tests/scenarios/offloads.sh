# SPDX-License-Identifier: GPL-2.0-or-later
# offloads: for each of the 8 combinations of SG, TX checksum and TSO (ethtool -K; the
# kernel may refuse a combination: the features actually in force are reported), send
# the pattern to the peer's sink (verified there); the device's own counters (ethtool -S)
# must agree with the driver's: equal packet counts with TSO off, at least one frame per
# MSS with TSO on. Then one host->guest transfer with the RX counters compared.
# host: sink=8 source=1 bytes=16M timeout=420
. /scenarios/common.sh

probe_checks
link_checks
net_checks

# hw_stat NAME: the device's counter from ethtool -S (empty if the driver has no such one)
hw_stat() { ethtool -S eth0 2>/dev/null | awk -F: -v k="$1" '{ gsub(/ /, "", $1) } $1 == k { gsub(/ /, "", $2); print $2 }'; }
# The device's counter (ethtool -S: the tally block the chip DMAs on request) and the driver's
# (counted at TX completion or RX delivery) read at one quiet moment: two readings of both,
# 100 ms apart, that agree. A frame sent between the two reads of a single sample (an ACK or a
# retransmit after the stream, counted by the chip before its completion reached the driver) made
# one 7.2 run see the device one frame ahead (+11522 against +11521).
quiet_counts() {  # HW_KEY SW_KEY -> "hw sw"
  prev=""
  for _ in $(seq 1 30); do
    now="$(hw_stat "$1") $(netstat_of "$2")"
    [ "$now" = "$prev" ] && break
    prev="$now"
    usleep 100000
  done
  echo "$now"
}
feature() { ethtool -k eth0 2>/dev/null | awk -F': ' -v k="$1" '$1 == k { print $2 }' | cut -d' ' -f1; }

command -v ethtool >/dev/null || fail "no ethtool in the image"
ethtool -i eth0 | sed 's/^/  /'
case "$NIC" in rtl8139) hw_tx=tx_ok hw_rx=rx_ok;; *) hw_tx=tx_packets hw_rx=rx_packets;; esac
[ -n "$(hw_stat $hw_tx)" ] || fail "ethtool -S eth0 has no $hw_tx counter"

bytes_n="$(echo "$BYTES" | awk '/K$/ { print $0 * 1024; next } /M$/ { print $0 * 1048576; next } /G$/ { print $0 * 1073741824; next } { print $0 }')"
min_frames=$((bytes_n / 1460))
n=0
for sg in off on; do
  for tx in off on; do
    for tso in off on; do
      n=$((n + 1))
      ethtool -K eth0 sg "$sg" tx "$tx" tso "$tso" >/tmp/ethtool.out 2>&1
      got="sg=$(feature scatter-gather) tx=$(feature tx-checksumming) tso=$(feature tcp-segmentation-offload)"
      set -- $(quiet_counts $hw_tx tx_packets); hw0=$1 sw0=$2
      tx_stream "$BYTES" "$R_sink" || fail "transfer $n failed with requested sg=$sg tx=$tx tso=$tso ($got)"
      set -- $(quiet_counts $hw_tx tx_packets); hw1=$1 sw1=$2
      dhw=$((hw1 - hw0)); dsw=$((sw1 - sw0))
      result "combo=$n want=sg:$sg,tx:$tx,tso:$tso $got hw_tx=$dhw sw_tx=$dsw"
      # QEMU's e1000e/rtl8139 count a TSO burst as one packet: the checks are for rtl8168
      if [ "$NIC" = rtl8168 ]; then
        [ "$dhw" -ge "$min_frames" ] || fail "combo $n ($got): device counted $dhw TX frames for $bytes_n bytes (< $min_frames)"
        case "$got" in
          *tso=off*) [ "$dhw" -eq "$dsw" ] || fail "combo $n ($got): ethtool -S $hw_tx +$dhw but the driver counted +$dsw";;
          *) [ "$dhw" -ge "$dsw" ] || fail "combo $n ($got): ethtool -S $hw_tx +$dhw < driver's +$dsw";;
        esac
      fi
    done
  done
done

set -- $(quiet_counts $hw_rx rx_packets); hw0=$1 sw0=$2
rx_stream "$BYTES" "$R_source" || fail "host->guest transfer failed"
set -- $(quiet_counts $hw_rx rx_packets); hw1=$1 sw1=$2
dhw=$((hw1 - hw0)); dsw=$((sw1 - sw0))
result "dir=rx hw_rx=$dhw sw_rx=$dsw"
if [ "$NIC" = rtl8168 ]; then
  [ "$dhw" -eq "$dsw" ] || fail "ethtool -S $hw_rx +$dhw but the driver counted +$dsw"
fi
ethtool -S eth0 | sed 's/^/  /'
pass "8 offload combinations and RX verified, counters agree"
