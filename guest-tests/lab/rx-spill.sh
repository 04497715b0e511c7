# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "rx-spill" (episode rx-maxsize-spill, docs/HISTORY.md §6; CVE-2009-1389 /
# CVE-2009-4537): the partner (MTU LAB_mtu, default 4000) sends LAB_count over-length frames of
# LAB_size bytes to the DUT (MTU 1500) through an AF_PACKET socket: each an IPv4/UDP datagram to
# port 7001 whose payload holds, at frame offset LAB_inner_off (1536: where the second
# 1536-byte RX buffer begins), a complete frame of its own, a UDP datagram to port 7002 that
# says "INJECTED". The DUT counts what its ports 7001 and 7002 received, its rx_packets and
# rx_length_errors, IpExt InTruncatedPkts (an IP datagram longer than its frame) and, with
# rtl8168sim, drv_rx_fragments (descriptors without both FS and LS).
#   --arg count=20 --arg size=4000 --arg inner_off=1536 --arg mtu=4000
# lab-programs: fault-tool
count="${LAB_count:-20}"; size="${LAB_size:-4000}"; off="${LAB_inner_off:-1536}"; mtu="${LAB_mtu:-4000}"
sim=0; [ "$LAB_driver" = rtl8168sim ] && sim=1
ns ip link set "$IFB" mtu "$mtu" || lab_fail "partner refused MTU $mtu"
lab_wait_link || lab_fail "no carrier after the partner's MTU change"
st() { cat /sys/class/net/$IFA/statistics/$1; }
trunc() { awk '/^IpExt: [A-Z]/ { for (i = 2; i <= NF; i++) n[i] = $i; next }
               /^IpExt: [0-9]/ { for (i = 2; i <= NF; i++) if (n[i] == "InTruncatedPkts") v = $i }
               END { print v + 0 }' /proc/net/netstat; }
rx0=$(st rx_packets); len0=$(st rx_length_errors); tr0=$(trunc); frag0=$(lab_stat drv_rx_fragments)
ms=$(( count * 20 + 1500 ))
LAB_READY=/tmp/ready1 fault-tool udp-count 7001 "$ms" >/tmp/c1 &
LAB_READY=/tmp/ready2 fault-tool udp-count 7002 "$ms" >/tmp/c2 &
lab_wait_file /tmp/ready1 50 && lab_wait_file /tmp/ready2 50 || lab_fail "receivers not ready"
ns fault-tool spill-send "$IFB" 52:54:00:00:00:01 "$count" "$size" "$off" >/tmp/send
n=0; while ! grep -q RESULT /tmp/c1 2>/dev/null || ! grep -q RESULT /tmp/c2 2>/dev/null; do
  n=$((n+1)); [ "$n" -gt $(( ms / 100 + 50 )) ] && lab_fail "receivers did not finish"; usleep 100000
done
cat /tmp/send /tmp/c1 /tmp/c2
sent=$(grep -oE 'sent=[0-9]+' /tmp/send | cut -d= -f2)
c1=$(grep -oE 'count=[0-9]+' /tmp/c1 | cut -d= -f2); c2=$(grep -oE 'count=[0-9]+' /tmp/c2 | cut -d= -f2)
inj=$(grep -oE 'injected=[0-9]+' /tmp/c2 | cut -d= -f2)
frags=$(( $(lab_stat drv_rx_fragments) - frag0 )); [ $sim = 1 ] || frags=-
lab_result "what=spill sent=${sent:-0} size=$size outer=${c1:-0} inner=${c2:-0} injected=${inj:-0} rx_packets=$(( $(st rx_packets) - rx0 )) rx_length_errors=$(( $(st rx_length_errors) - len0 )) ip_truncated=$(( $(trunc) - tr0 )) fragments=$frags"
ns ip link set "$IFB" mtu 1500
lab_done
