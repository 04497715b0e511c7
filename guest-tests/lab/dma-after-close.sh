# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "dma-after-close" (episode dma-after-close, docs/HISTORY.md "DMA after close"; meant to run
# behind the IOMMU: run-lab --iommu). The DUT is an 8168evl (VER_34) whose PM capability
# advertises PME# (x-pme=on), so `ethtool -s IF wol g` makes it wakeup-enabled, as on real
# boards. The partner then sends the DUT a stream of UDP frames and, while they arrive, the DUT's
# interface goes down (rtl8169_close: the rings are unmapped and freed) and stays down for
# LAB_down_ms, then comes back up (new rings) and must answer a ping.
# What r8169 does on that close with Wake-on-LAN: rtl8169_cleanup skips the chip reset
# (tp->dev->wol_enabled) and rtl_prepare_power_down -> rtl_wol_enable_rx sets AcceptBroadcast |
# AcceptMulticast | AcceptMyPhys again for VER_25 and later: the receiver stays on, and the chip
# keeps fetching RX descriptors for every frame that arrives. The stock driver has cleared bus
# mastering in rtl8169_down (f658b90977d2) so those fetches never leave the device; a driver
# without that lets them reach memory the close just freed: with the IOMMU, DMA faults
# (run-lab's HOST iommu line counts them and FAILs the run).
# With WoL the close also calls phy_speed_down: the link renegotiates to 10 Mbit/s (phy-an-time,
# 500 ms), so the interface stays down for 1500 ms to let frames arrive after that.
# offered_while_down= counts the frames the partner sent while the DUT was down (the run shows
# nothing unless some arrived).
#   --arg wol=g|d (default g) --arg down_ms=1500 --arg count=400000 --arg size=256
# lab-programs: lab-tool
# lab-dut-props: chip=8168evl,x-pme=on
wol="${LAB_wol:-g}"; down_ms="${LAB_down_ms:-1500}"
count="${LAB_count:-400000}"; size="${LAB_size:-256}"

if [ "${LAB_iommu:-0}" = 1 ]; then
  # the DUT's DMA is translated strictly (type DMA): an unmapped buffer faults at once
  [ -e "/sys/bus/pci/devices/$A/iommu_group" ] || lab_fail "iommu: the DUT $A is in no IOMMU group"
  g="$(basename "$(readlink "/sys/bus/pci/devices/$A/iommu_group")")"
  t="$(cat "/sys/kernel/iommu_groups/$g/type" 2>/dev/null)"
  [ "$t" = DMA ] || lab_fail "iommu: the DUT's group $g has a '$t' domain, not DMA (strict)"
  lab_result "what=iommu group=$g domain=$t"
fi

ethtool -s "$IFA" wol "$wol" || lab_fail "ethtool -s $IFA wol $wol"
got="$(ethtool "$IFA" | awk '$1 == "Wake-on:" { print $2 }')"
[ "$got" = "$wol" ] || lab_fail "Wake-on is '$got' after ethtool -s $IFA wol $wol"
wakeup="$(cat "/sys/bus/pci/devices/$A/power/wakeup" 2>/dev/null)"
if [ "$wol" != d ] && [ "$wakeup" != enabled ]; then
  lab_fail "the DUT is not wakeup-enabled (power/wakeup '$wakeup'; does its PM capability advertise PME#?)"
fi

lab_ping || lab_fail "ping 10.9.0.2 before the close"   # the partner's ARP entry is fresh
# a receiver on the DUT while it is up: no ICMP port-unreachable, whose error would end the
# sender (IP_RECVERR) before the close
lab-tool udp-recv 7000 "$count" $((down_ms + 4000)) >/tmp/udp-recv 2>&1 &
usleep 100000
ns lab-tool udp-send 10.9.0.1 7000 "$count" "$size" >/tmp/udp-send 2>&1 &
FLOOD=$!
usleep 100000
rx0="$(cat "/sys/class/net/$IFA/statistics/rx_packets")"
t0=$(lab_now_ns)
ip link set "$IFA" down || lab_fail "ip link set $IFA down"
t1=$(lab_now_ns)
# the partner's TX packets from its namespace's /proc/net/dev (sysfs shows the root namespace)
tx_b() { ns cat /proc/net/dev | awk -v i="$IFB:" '$1 == i { print $11 }'; }
sent0="$(tx_b)"
usleep $((down_ms * 1000))
sent1="$(tx_b)"
ip link set "$IFA" up || lab_fail "ip link set $IFA up"
kill "$FLOOD" 2>/dev/null; wait "$FLOOD" 2>/dev/null
lab_wait_link || lab_fail "no carrier after ip link set $IFA up"
lab_ping || { cat /tmp/ping; lab_fail "no ping after the interface came back up"; }
# the guest's view: DMAR fault lines the kernel printed (ratelimited; the host counts them all)
dmar="$(dmesg | grep -c 'DMAR: .*fault addr')"
splat="$(dmesg | grep -cE 'WARNING:|BUG:|Oops|general protection')"
lab_result "what=close wol=$wol wakeup=${wakeup:-none} rx_before_close=$rx0 close_ms=$(( (t1 - t0) / 1000000 )) down_ms=$down_ms offered_while_down=$((sent1 - sent0)) up_ping=ok dmar_fault_lines=$dmar splats=$splat"
[ "$splat" -eq 0 ] || { dmesg | grep -E -A5 'WARNING:|BUG:|Oops|general protection' | head -30; lab_fail "kernel splat in dmesg"; }
lab_done "the interface went down and up under traffic; ping after the reopen ok"
