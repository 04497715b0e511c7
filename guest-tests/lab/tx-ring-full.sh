# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "tx-ring-full": the driver with its TX ring full, the regime BQL normally keeps a
# driver out of. Byte queue limits stop the queue long before the ring fills (the limit follows
# what the chip completes between interrupts, a few frames here); with BQL's minimum limit
# raised through sysfs (byte_queue_limits/limit_min, LAB_bql bytes, default 32 MiB) only the
# driver's own ring check stops the queue: r8169's rtl8169_start_xmit stops it when fewer than
# MAX_SKB_FRAGS + 1 descriptors are free, and rtl_tx wakes it when completions free them.
# The DUT's link is forced to 100 Mbit/s, so that the wire, not the guest's CPU, is the
# bottleneck. Four flows from the DUT to the partner at once:
#   frags-A, frags-B  TCP, LAB_frag_bytes (1 MiB) each, written with MSG_ZEROCOPY from pieces of
#                     256 and 1024 bytes each in a page of its own (verify-tool tcp-send-frags):
#                     every skb carries up to 17 small fragments, one descriptor each, and the
#                     receiver checks every byte
#   udp-A, udp-B      LAB_udp_count (3000) datagrams of 1472 bytes each (lab-tool udp-send, UDP
#                     GSO batches of 8): the receiver checks the sequence (order, loss)
# Verdict: every TCP byte arrived and matched; every datagram arrived in order, or each one
# missing is a drop some counter shows (the partner's NIC or stack: every drop counted); the
# driver never found its ring full with the queue awake ("BUG! Tx Ring full when queue
# awake!"), counted no tx_dropped, and no TX timeout fired. Figures: the largest BQL in-flight
# byte count sampled during the run (against the limit a default BQL settles at), the
# zerocopy sends the kernel copied instead.
#   --arg bql=33554432 --arg frag_bytes=1048576 --arg udp_count=3000
# lab-programs: lab-tool verify-tool
bql="${LAB_bql:-33554432}"; fb="${LAB_frag_bytes:-1048576}"; uc="${LAB_udp_count:-3000}"
PEER=10.9.0.2
q="/sys/class/net/$IFA/queues/tx-0/byte_queue_limits"
[ -w "$q/limit_min" ] || lab_fail "no BQL in sysfs ($q/limit_min): the kernel lacks CONFIG_BQL"
st() { cat "/sys/class/net/$IFA/statistics/$1"; }
limit0=$(cat "$q/limit")
echo "$bql" >"$q/limit_min" || lab_fail "writing BQL limit_min $bql refused"
[ "$(cat "$q/limit_min")" -ge "$bql" ] || lab_fail "BQL limit_min reads $(cat "$q/limit_min") after writing $bql"
ifconfig "$IFA" txqueuelen 10000 || lab_fail "txqueuelen 10000 refused"
# The guest's one CPU builds frames slower than a 1000 Mbit/s wire takes them: at 100 Mbit/s
# (forced, as `ethtool -s` does) the wire is the bottleneck and the ring fills
ethtool -s "$IFA" speed 100 duplex full autoneg off || lab_fail "ethtool -s speed 100 refused"
lab_wait_link || lab_fail "no carrier at 100 Mbit/s"
# r8169 leaves SG and TSO off on the older chips: without SG the stack copies zerocopy sends
# into linear skbs, one descriptor each
ethtool -K "$IFA" sg on tso on tx on 2>/dev/null || lab_log "ethtool -K sg/tso/tx on refused: $(ethtool -k "$IFA" 2>&1 | grep -E '^(scatter|tcp-seg|tx-check)' | tr '\n' ' ')"
dmesg -c >/dev/null 2>&1
txd0=$(st tx_dropped); wd0=$(cat "/sys/class/net/$IFA/queues/tx-0/tx_timeout" 2>/dev/null || echo 0)
lossb0=$(ns cat /proc/net/dev | lab_nic_losses "$IFB" "$(ns ethtool -S "$IFB" 2>/dev/null | awk '$1 == "rx_missed:" {print $2}')")
stackb0=$(ns cat /proc/net/netstat /proc/net/snmp | guest_stack_drops)

ms=120000
rm -f /tmp/r1 /tmp/r2 /tmp/r3 /tmp/r4
# (each background job is waited for by its pid: a plain `wait` would also wait for the lab's
# deadline timer)
ns env LAB_READY=/tmp/r1 verify-tool tcp-recv 7301 "$fb" "$ms" >/tmp/recv-frags-A &
r1=$!
ns env LAB_READY=/tmp/r2 verify-tool tcp-recv 7302 "$fb" "$ms" >/tmp/recv-frags-B &
r2=$!
ns env LAB_READY=/tmp/r3 lab-tool udp-recv 7303 "$uc" "$ms" >/tmp/recv-udp-A &
r3=$!
ns env LAB_READY=/tmp/r4 lab-tool udp-recv 7304 "$uc" "$ms" >/tmp/recv-udp-B &
r4=$!
for r in /tmp/r1 /tmp/r2 /tmp/r3 /tmp/r4; do lab_wait_file "$r" 100 || lab_fail "partner receiver $r not ready"; done
# the largest in-flight byte count BQL saw while the senders ran, sampled about every
# half millisecond (the shell's read builtin for the value)
rm -f /tmp/stop /tmp/peak
sh -c 'peak=0; n=0; while [ ! -f /tmp/stop ]; do read -r v <"$1"; [ "$v" -gt "$peak" ] && peak=$v; n=$((n + 1)); usleep 500; done; echo "$peak $n" >/tmp/peak' sampler "$q/inflight" &
sp=$!
verify-tool tcp-send-frags "$PEER" 7301 "$fb" 256 "$ms" >/tmp/send-frags-A &
s1=$!
verify-tool tcp-send-frags "$PEER" 7302 "$fb" 1024 "$ms" >/tmp/send-frags-B &
s2=$!
lab-tool udp-send "$PEER" 7303 "$uc" 1472 8 >/tmp/send-udp-A &
s3=$!
lab-tool udp-send "$PEER" 7304 "$uc" 1472 8 >/tmp/send-udp-B &
s4=$!
wait $s1 $s2 $s3 $s4
touch /tmp/stop
wait $sp $r1 $r2 $r3 $r4
read -r peak samples </tmp/peak || { peak=0; samples=0; }
cat /tmp/send-* /tmp/recv-*
val() { sed -n "s/.* $2=\([0-9-]*\).*/\1/p" "$1"; }
bad=""
for f in A B; do
  [ "$(val /tmp/recv-frags-$f complete)" = 1 ] ||
    bad="$bad; TCP flow frags-$f: $(val /tmp/recv-frags-$f bytes) of $fb bytes, $(val /tmp/recv-frags-$f bad) wrong (first at $(val /tmp/recv-frags-$f first_bad))"
done
lost=0
for f in A B; do
  l=$(val /tmp/recv-udp-$f lost); o=$(val /tmp/recv-udp-$f ooo); d=$(val /tmp/recv-udp-$f dup)
  lost=$((lost + ${l:-$uc}))
  [ "${o:-1}" -eq 0 ] && [ "${d:-1}" -eq 0 ] || bad="$bad; UDP flow udp-$f: $o datagrams out of order, $d duplicated"
done
lossb=$(( $(ns cat /proc/net/dev | lab_nic_losses "$IFB" "$(ns ethtool -S "$IFB" 2>/dev/null | awk '$1 == "rx_missed:" {print $2}')") - lossb0 ))
stackb=$(( $(ns cat /proc/net/netstat /proc/net/snmp | guest_stack_drops) - stackb0 ))
[ "$lost" -le $((lossb + stackb)) ] ||
  bad="$bad; $lost datagrams never arrived but the partner counted only $lossb NIC and $stackb stack drops: frames vanished"
txd=$(( $(st tx_dropped) - txd0 ))
wd=$(( $(cat "/sys/class/net/$IFA/queues/tx-0/tx_timeout" 2>/dev/null || echo 0) - wd0 ))
full=$(dmesg | grep -c "Tx Ring full when queue awake")
copied=$(( $(val /tmp/send-frags-A copied) + $(val /tmp/send-frags-B copied) ))
sends=$(( $(val /tmp/send-frags-A sends) + $(val /tmp/send-frags-B sends) ))
lab_result "what=summary bql_limit_before=$limit0 bql_min=$bql inflight_peak=$peak samples=$samples udp_lost=$lost partner_drops=$((lossb + stackb)) tx_dropped=$txd tx_timeouts=$wd ring_full_awake=$full zerocopy_sends=$sends copied=$copied"
[ "$full" -eq 0 ] || bad="$bad; the driver found its TX ring full with the queue awake ($full x 'BUG! Tx Ring full when queue awake!')"
[ "$txd" -eq 0 ] || bad="$bad; the driver dropped $txd TX frames (tx_dropped)"
[ "$wd" -eq 0 ] || bad="$bad; $wd TX timeouts (NETDEV WATCHDOG) with the ring full"
[ -z "$bad" ] || lab_fail "${bad#; }"
lab_done "4 flows with the TX ring full (BQL in flight up to $peak bytes, limit $limit0 before): every TCP byte verified, every datagram in order ($lost lost, each counted)"
