# SPDX-License-Identifier: GPL-2.0-or-later
# throughput: netperf-style measurements for scripts/compare-nics (any --nic). Link, DHCP,
# ping, then TCP_STREAM guest->host (verified by the peer's sink), TCP_STREAM host->guest
# (pattern verified in the guest) and TCP_RR against the peer's rr server (1-byte request
# and response, rtl8168.rr_count= transactions, default 2000). rtl8168.tso=on first runs
# `ethtool -K eth0 sg on tso on` (r8169 leaves SG and TSO off by default; e1000e and 8139cp
# have them on); the features in force are reported. One RESULT line each:
#   RESULT scenario=throughput dir=tx rc=0 tool=stream-send status=ok bytes=N ns=N mbps=X ...
#   RESULT scenario=throughput dir=rx rc=0 tool=stream-recv status=ok bytes=N ns=N mbps=X ...
#   RESULT scenario=throughput dir=rr rc=0 tool=rr status=ok ... tps=X mean_ns=X stddev_ns=X ...
# Times are guest CLOCK_MONOTONIC. Not a CTest test (no pass/fail threshold on the numbers).
# host: sink=1 source=1 rr=1 bytes=64M timeout=300
. /scenarios/common.sh

RR_COUNT="${R_rr_count:-2000}"
probe_checks
link_checks
net_checks
feature() { ethtool -k eth0 2>/dev/null | awk -F': ' -v k="$1" '$1 == k { print $2 }' | cut -d' ' -f1; }
if [ "${R_tso:-off}" = on ]; then
  ethtool -K eth0 sg on tso on >/tmp/ethtool.out 2>&1 || { sed 's/^/  ethtool: /' /tmp/ethtool.out; fail "ethtool -K eth0 sg on tso on failed"; }
fi
result "features sg=$(feature scatter-gather) tx=$(feature tx-checksumming) tso=$(feature tcp-segmentation-offload) requested_tso=${R_tso:-default}"
check "guest->host transfer failed" tx_stream "$BYTES" "$R_sink"
check "host->guest transfer failed" rx_stream "$BYTES" "$R_source"
check "TCP_RR failed" traffic rr rr "$PEER" "$R_rr" 1 1 "$RR_COUNT"
result "tx_packets=$(netstat_of tx_packets) rx_packets=$(netstat_of rx_packets) uptime=$(cut -d' ' -f1 /proc/uptime)"
pass "stream tx, stream rx and rr ok"
