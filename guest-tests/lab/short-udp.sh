# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "short-udp" (episode rtl8125-short-udp, docs/HISTORY.md "RTL8125 short UDP"): the
# DUT is the RTL8125B profile, whose short-udp-hang quirk (on, as on silicon) hangs the TX path
# on a UDP frame the chip cannot parse: fewer than 47 bytes after the IP header to PTP's port
# 319/320, or fewer than 8 (the frames r8169's rtl8125_quirk_udp_padto pads since
# 8d520b4de3ed). The DUT sends, to the partner (its own namespace):
#   udp    LAB_udp short datagrams (8 bytes of payload, 50-byte frames the driver pads to 60)
#          to port 6000 as fast as the socket takes them: heavy short-UDP load that no driver pads for the
#          defect and that must arrive whatever the driver
#   ptp    LAB_ptp datagrams of 20 bytes to port 319 (PTP event): 62-byte frames, 28 bytes after
#          the IP header. The fixed driver pads each to 47 bytes of transport data; the old one
#          hands it over as it is, the chip hangs, BQL stops the queue, and the kernel's TX
#          watchdog (6 s) calls r8169's ndo_tx_timeout, whose reset drops the frame (one hang
#          and one reset per datagram). The receiver waits up to LAB_ptp_ms.
#   after  LAB_udp datagrams again to port 6001 and a ping: the network is back after the reset
# Reported per phase: sent, received (unique), and for ptp the TX watchdog's count
# (queues/tx-0/tx_timeout) and the "timed out" messages.
#   --arg udp=1000 --arg ptp=2 --arg ptp_ms=30000
# lab-dut-props: chip=8125b
# lab-programs: lab-tool
udp="${LAB_udp:-1000}"; ptp="${LAB_ptp:-2}"; ptp_ms="${LAB_ptp_ms:-30000}"

# stream PORT COUNT SIZE BATCH MAX_MS: the partner receives, the DUT sends; sets $got to the
# receiver's unique count
stream() {
  rm -f /tmp/ready
  ns env LAB_READY=/tmp/ready lab-tool udp-recv "$1" "$2" "$5" >/tmp/recv-$1.out &
  R=$!
  lab_wait_file /tmp/ready 50 || lab_fail "udp receiver on port $1 not ready"
  lab-tool udp-send 10.9.0.2 "$1" "$2" "$3" "$4" >/tmp/send-$1.out || lab_fail "udp-send to port $1 failed"
  wait $R
  got=$(grep -oE 'unique=[0-9]+' /tmp/recv-$1.out | head -n1 | cut -d= -f2)
}
wd() { cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0; }

stream 6000 "$udp" 8 1 10000
lab_result "what=udp sent=$udp received=${got:-0}"

wd0=$(wd); msgs0=$(dmesg | grep -c 'timed out')
stream 319 "$ptp" 20 1 "$ptp_ms"
# the last reset may still be pending when the receiver gives up: wait for the watchdog to
# have fired once per datagram that did not arrive (bounded: 15 s of guest time each)
lost=$(( ptp - ${got:-0} )); n=0
while [ $(( $(wd) - wd0 )) -lt "$lost" ] && [ $n -lt $(( lost * 150 )) ]; do usleep 100000; n=$((n+1)); done
usleep 500000
dmesg | grep -E 'timed out|TX timeout|Tx timeout|resetting' | tail -4 | sed 's/^/  /'
lab_result "what=ptp sent=$ptp received=${got:-0} tx_timeouts=$(( $(wd) - wd0 )) timeout_msgs=$(( $(dmesg | grep -c 'timed out') - msgs0 ))"

stream 6001 "$udp" 8 1 10000
ping -c 1 -W 2 10.9.0.2 >/dev/null 2>&1 && p=ok || p=failed
lab_result "what=after sent=$udp received=${got:-0} ping=$p"
lab_done
