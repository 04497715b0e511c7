# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "rss-mq": the RTL8125B's RX queues with RSS, driven by rtl8168sim's multi-queue mode
# (--params rss_queues=4: four RX rings, RSS over the IPv4/IPv6 TCP/UDP hash types with the
# 128-entry indirection table spread over the rings, one NAPI per ring; docs/DRIVER.md). The
# partner sends the DUT LAB_flows (16) TCP flows and as many UDP flows at once, half over IPv4
# and half over IPv6, each to a port of its own (and from an ephemeral port of its own), every
# byte checked by the DUT's receiver (verify-tool). Then:
#   - every flow delivered all of its data intact (TCP LAB_bytes each, UDP LAB_dgrams datagrams
#     of 1000 bytes each, none lost, none wrong);
#   - every RX queue received frames (ethtool -S rx_queue_<q>_packets, printed per queue): with
#     32 flows and the table spread evenly an empty queue means the frames are not spread (the
#     chance that a random set of source ports leaves one of 4 queues empty is 4 x (3/4)^32,
#     about 1e-4);
#   - the queues' sum is the device's RX count (the tally's rx_packets, counted by the chip) and
#     the driver's (rx_packets), and nothing was dropped or missed (tally rx_missed, the DUT's
#     /proc/net/dev error and drop columns).
#   --arg flows=16 --arg bytes=262144 --arg dgrams=64 --arg queues=4
# lab-dut-props: chip=8125b
# lab-programs: verify-tool
flows="${LAB_flows:-16}"; bytes="${LAB_bytes:-262144}"; dgrams="${LAB_dgrams:-64}"
queues="${LAB_queues:-4}"; ms="${LAB_ms:-20000}"
DUT6=fd00:9::1

field() { sed -n "s/.* $1=\([-0-9]*\).*/\1/p" "$2"; }
# the DUT's per-queue RX frames, "q0 q1 ..." (ethtool -S rx_queue_<q>_packets)
queue_counts() {
  ethtool -S "$IFA" | awk '$1 ~ /^rx_queue_[0-9]+_packets:$/ { printf "%s ", $2 }'
}
# errors and drops of the DUT's interface (/proc/net/dev: RX errs drop fifo frame, TX errs drop)
dut_losses() { awk -v i="$IFA:" '$1 == i { print $4 + $5 + $6 + $7 + $12 + $13 }' /proc/net/dev; }

set -- $(queue_counts)
[ "$#" -eq "$queues" ] ||
  lab_fail "the DUT's driver reports $# RX queues, not $queues (run with --params rss_queues=$queues; params '$LAB_params')"
irqkind="$(grep -E " $IFA\$" /proc/interrupts | grep -oE 'PCI-MSI[X]?|IO-APIC' | head -n1)"
lab_log "rss: $queues RX queues, irq ${irqkind:-?}, $(ethtool -i "$IFA" | grep firmware-version)"

# The DUT's receive windows capped at 32 KiB a flow (22 full frames): 16 TCP flows then keep
# at most about 350 frames in flight, fewer than one ring's 256 descriptors even when half the
# flows hash to one queue, so a frame the DUT misses is a driver or device fault, not the one
# CPU the guest shares between both ends falling behind a flood (observed without the cap: 29
# missed of 4008 frames in one of two runs, every flow still verified after retransmission).
echo "4096 32768 32768" >/proc/sys/net/ipv4/tcp_rmem
echo 0 >"/proc/sys/net/ipv6/conf/$IFA/accept_dad"
ns sh -c "echo 0 >/proc/sys/net/ipv6/conf/$IFB/accept_dad"
ip -6 addr add "$DUT6/64" dev "$IFA" || lab_fail "ip -6 addr add on the DUT"
ns ip -6 addr add fd00:9::2/64 dev "$IFB" || lab_fail "ip -6 addr add on the partner"
guest_wait 30 ping -6 -c 1 -W 1 fd00:9::2 >/dev/null 2>&1 || lab_fail "no IPv6 ping to the partner"

qs0="$(queue_counts)"; tally0=$(lab_stat rx_packets)
drv0=$(cat "/sys/class/net/$IFA/statistics/rx_packets")
miss0=$(lab_stat rx_missed); loss0=$(dut_losses)

# the receivers first (each writes its ready file), then every sender at once
i=0; pids=""
while [ "$i" -lt "$flows" ]; do
  rm -f "/tmp/ready-t$i" "/tmp/ready-u$i"
  LAB_READY="/tmp/ready-t$i" verify-tool tcp-recv $((5400 + i)) "$bytes" "$ms" >"/tmp/trecv-$i" &
  pids="$pids $!"
  LAB_READY="/tmp/ready-u$i" verify-tool udp-recv $((5500 + i)) "$dgrams" "$ms" >"/tmp/urecv-$i" &
  pids="$pids $!"
  i=$((i + 1))
done
i=0
while [ "$i" -lt "$flows" ]; do
  lab_wait_file "/tmp/ready-t$i" 50 && lab_wait_file "/tmp/ready-u$i" 50 ||
    lab_fail "DUT receiver $i not ready"
  i=$((i + 1))
done
i=0
while [ "$i" -lt "$flows" ]; do
  # even flows over IPv4, odd ones over IPv6
  dst=10.9.0.1; [ $((i % 2)) -eq 1 ] && dst="$DUT6"
  ns verify-tool tcp-send "$dst" $((5400 + i)) "$bytes" "$ms" >/dev/null &
  ns verify-tool udp-send "$dst" $((5500 + i)) "$dgrams" 1000 >/dev/null &
  i=$((i + 1))
done
wait $pids

bad=""
i=0
while [ "$i" -lt "$flows" ]; do
  proto=4; [ $((i % 2)) -eq 1 ] && proto=6
  got=$(field bytes "/tmp/trecv-$i"); nbad=$(field bad "/tmp/trecv-$i")
  ug=$(field got "/tmp/urecv-$i"); ub=$(field bad "/tmp/urecv-$i"); ul=$(field lost "/tmp/urecv-$i")
  lab_result "flow=$i ip=$proto tcp_bytes=${got:-0}/$bytes tcp_bad=${nbad:-?} udp_got=${ug:-0}/$dgrams udp_bad=${ub:-?} udp_lost=${ul:-?}"
  [ "${got:-0}" -eq "$bytes" ] && [ "${nbad:-1}" -eq 0 ] ||
    bad="$bad; TCP flow $i (IPv$proto): ${got:-0} of $bytes bytes, ${nbad:-?} wrong"
  [ "${ug:-0}" -eq "$dgrams" ] && [ "${ub:-1}" -eq 0 ] ||
    bad="$bad; UDP flow $i (IPv$proto): ${ug:-0} of $dgrams datagrams intact, ${ub:-?} wrong"
  i=$((i + 1))
done

# the per-queue and device counts of one moment: read again until a late frame (neighbour
# discovery, a retransmission) no longer lands between the reads
n=0
while :; do
  qs1="$(queue_counts)"; tally1=$(lab_stat rx_packets)
  drv1=$(cat "/sys/class/net/$IFA/statistics/rx_packets")
  [ "$qs1" = "$(queue_counts)" ] && [ "$tally1" = "$(lab_stat rx_packets)" ] && break
  n=$((n + 1)); [ "$n" -lt 5 ] || break
  usleep 100000
done
set -- $qs1
sum=0; empty=""; per=""; q=0
for now in "$@"; do
  before=$(echo "$qs0" | cut -d' ' -f$((q + 1)))
  d=$((now - before)); sum=$((sum + d)); per="$per q$q=$d"
  [ "$d" -gt 0 ] || empty="$empty $q"
  q=$((q + 1))
done
tally=$((tally1 - tally0)); drv=$((drv1 - drv0))
miss=$(($(lab_stat rx_missed) - miss0)); loss=$(($(dut_losses) - loss0))
lab_result "rx_queues=$queues${per} sum=$sum device_rx_packets=$tally driver_rx_packets=$drv rx_missed=$miss dut_losses=$loss"
[ -z "$empty" ] || bad="$bad; RX queue(s)$empty received nothing from $((2 * flows)) flows"
[ "$sum" -eq "$tally" ] || bad="$bad; the queues received $sum frames, the device counted $tally"
[ "$sum" -eq "$drv" ] || bad="$bad; the queues received $sum frames, the driver counted $drv"
[ "$miss" -eq 0 ] && [ "$loss" -eq 0 ] ||
  bad="$bad; the DUT missed $miss frames (tally) and counted $loss errors or drops"
lab_check_order
[ -z "$bad" ] || lab_fail "${bad#; }"
lab_done "$((2 * flows)) flows (TCP/UDP, IPv4/IPv6) verified over $queues RX queues:${per}"
