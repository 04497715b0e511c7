# SPDX-License-Identifier: GPL-2.0-or-later
# smoke: the driver probes the NIC (rtl8168: r8169 reports RTL8168c/8111c, XID 3c4, and
# uses MSI), link 1000/full, DHCP over -netdev user, ping the host, full-size frames
# both ways (frame_checks), then the pattern
# guest->host and host->guest, verified (the peer checks what it receives, the guest
# program what it receives from the peer's source); no TCP segment may arrive out of order
# (TcpExt TCPOFOQueue 0 unless eth0 lost a frame: order_checks).
# host: sink=1 source=1 bytes=64M
. /scenarios/common.sh

probe_checks
link_checks
net_checks
frame_checks
irq_before="$(eth0_irq_count)"
check "guest->host transfer failed" tx_stream "$BYTES" "$R_sink"
check "host->guest transfer failed" rx_stream "$BYTES" "$R_source"
irq_after="$(eth0_irq_count)"
result "irqs=$((irq_after - irq_before)) tx_packets=$(netstat_of tx_packets) rx_packets=$(netstat_of rx_packets) uptime=$(cut -d' ' -f1 /proc/uptime)"
[ "$irq_after" -gt "$irq_before" ] || fail "no interrupts on eth0 during the transfers"
order_checks
pass "probe, link, dhcp, ping, full-size frames and both transfers ok"
