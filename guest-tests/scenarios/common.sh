# SPDX-License-Identifier: GPL-2.0-or-later
# Steps shared by the scenarios (sourced after /etc/rtl8168-lib.sh). Not a scenario.
BYTES="${R_bytes:-64M}"

# Interrupts taken by eth0 so far (sum over CPUs), and the kind (PCI-MSI, IO-APIC).
eth0_irq_count() {
  awk '/eth0/ { s = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i; else break; t += s } END { print t + 0 }' /proc/interrupts
}
eth0_irq_kind() {
  grep -E 'eth0' /proc/interrupts | grep -oE '(IR-)?PCI-MSI[X]?|IO-APIC' | head -1
}

# What r8169 must report for the chip profile (R_chip, from run-guest's --device-props chip=): the
# identity the model lists (rtl8168-bench chips: rtl_chip_infos name, XID, PHY ID, the firmware
# r8169 asks for, absent in the image: r8169 logs it and carries on, as on hardware without
# linux-firmware), which run-guest passes as R_chip_name/_xid/_phy/_fw. The PHY driver that binds
# is Linux's choice for the PHY ID (realtek.c).
chip_expect() {
  [ "$NIC" = rtl8168 ] || return 0
  CHIP_NAME="${R_chip_name:?run-guest passes rtl8168.chip_name}" CHIP_XID="${R_chip_xid:?}"
  CHIP_FW="${R_chip_fw:-}"
  [ "$CHIP_FW" = - ] && CHIP_FW=""
  # The link speed the PHY negotiates with the emulated partner: its best mode. The RTL8125B's
  # 2.5G PHY (0x001cc840) is "RTL8226B_RTL8221B 2.5Gbps PHY" to 6.1's realtek.c and "Realtek
  # Internal NBASE-T PHY" from 6.12 on (its MMD over C22 reads 0).
  CHIP_SPEED=1000
  case "${R_chip_phy:?}" in
    001cc912) CHIP_PHY="RTL8211B" ;;
    001cc800) CHIP_PHY="Generic FE-GE Realtek PHY" ;;
    001cc840) CHIP_PHY="RTL8226B_RTL8221B 2.5Gbps PHY\|Realtek Internal NBASE-T PHY"; CHIP_SPEED=2500 ;;
    *)        CHIP_PHY="PHY [0-9a-f:.]* driver" ;;
  esac
}

# run-guest --iommu (R_iommu=1, with intel_iommu=on iommu.strict=1 iommu.passthrough=0): the
# NIC is in an IOMMU group whose default domain translates its DMA strictly (type DMA; DMA-FQ
# would defer IOTLB invalidation, identity would not translate), so a buffer the driver unmapped
# faults on the chip's next access (docs/GUEST.md "DMA behind an IOMMU").
iommu_checks() {
  [ "${R_iommu:-0}" = 1 ] || return 0
  dev=/sys/class/net/eth0/device
  [ -e "$dev/iommu_group" ] || fail "iommu: eth0's device is in no IOMMU group ($(dmesg | grep -m1 -E 'DMAR|IOMMU' || echo 'no DMAR line in dmesg'))"
  g="$(basename "$(readlink "$dev/iommu_group")")"
  t="$(cat "/sys/kernel/iommu_groups/$g/type" 2>/dev/null)"
  result "iommu=$(ls /sys/class/iommu | tr '\n' ' ' | sed 's/ $//') group=$g domain=$t"
  [ "$t" = DMA ] || fail "iommu: group $g has a '$t' domain, not a strictly translated one (DMA)"
}

# The driver bound the device; for rtl8168, r8169 names the chip and uses MSI.
probe_checks() {
  chip_expect
  iommu_checks
  drv="$(basename "$(readlink /sys/class/net/eth0/device/driver)")"
  ids="$(cat /sys/class/net/eth0/device/vendor /sys/class/net/eth0/device/device | tr '\n' ' ')"
  result "driver=$drv pci=$(echo $ids | sed 's/0x//g; s/ /:/') irq=$(eth0_irq_kind)"
  if [ "$NIC" = rtl8168 ]; then
    [ "$drv" = r8169 ] || fail "eth0 is bound to '$drv', not r8169"
    line="$(dmesg | grep -F "eth0: $CHIP_NAME" | grep r8169 | head -1)"
    [ -n "$line" ] || fail "r8169 did not report $CHIP_NAME"
    echo "$line" | grep -q "XID $CHIP_XID" || fail "r8169 did not report XID $CHIP_XID: $line"
    result "chip=$CHIP_NAME xid=$CHIP_XID"
    eth0_irq_kind | grep -q MSI || fail "eth0 does not use MSI ($(grep eth0 /proc/interrupts))"
    dmesg | grep -qi "$CHIP_PHY\|attached PHY driver" || fail "no PHY driver attached"
    # The PHY driver Linux bound (realtek.c's choice for the PHY ID), when sysfs names it.
    phydrv="$(readlink /sys/class/net/eth0/phydev/driver 2>/dev/null)"
    if [ -n "$phydrv" ]; then result "phy_driver=$(basename "$phydrv" | tr ' ' '_')"; fi
    if [ -n "$CHIP_FW" ] && [ "${R_fw_present:-0}" = 1 ]; then
      # run-guest --firmware: the file is in /lib/firmware; r8169 loads it at open, writes its
      # MAC MCU and PHY patches (r8169_firmware.c) and reports its version in ethtool -i
      # (rtl8169_get_drvinfo: rtl_fw->version, "rtl8168h-2_0.0.2 02/26/15" for the 8168h's)
      [ -f "/lib/firmware/$CHIP_FW" ] || fail "--firmware, but no /lib/firmware/$CHIP_FW in the guest"
      ! dmesg | grep -qiE "(unable to|failed to) (load|apply) firmware|invalid firmware|firmware: failed" \
        || fail "r8169 did not load $CHIP_FW: $(dmesg | grep -iE 'firmware' | grep -iE 'fail|unable|invalid' | head -1)"
      fwv="$(ethtool -i eth0 2>/dev/null | sed -n 's/^firmware-version: *//p')"
      [ -n "$fwv" ] || fail "r8169 reports no firmware version (ethtool -i eth0) with $CHIP_FW present"
      result "firmware=$CHIP_FW loaded version=$(echo "$fwv" | tr ' ' '_')"
    elif [ -n "$CHIP_FW" ]; then
      dmesg | grep -qF "Unable to load firmware $CHIP_FW" \
        && result "firmware=$CHIP_FW absent (r8169 carried on)" \
        || result "firmware=$CHIP_FW requested=no"
    fi
  fi
}

# Wait until eth0's carrier reads $1 (0 or 1), at most $2 seconds; 50 ms polls, finer than
# wait_link's, since link-flap and the faults link classes time the carrier's changes with it.
wait_carrier() {  # 0|1 SECONDS
  n=0
  while [ "$(cat /sys/class/net/eth0/carrier 2>/dev/null)" != "$1" ]; do
    n=$((n + 1)); [ "$n" -gt "$(($2 * 20))" ] && return 1
    usleep 50000
  done
}

link_checks() {
  wait_link 10 || fail "no carrier on eth0 within 10 s"
  speed="$(cat /sys/class/net/eth0/speed 2>/dev/null)"
  duplex="$(cat /sys/class/net/eth0/duplex 2>/dev/null)"
  result "link=up speed=$speed duplex=$duplex"
  want="${CHIP_SPEED:-1000}"
  [ "$NIC" = rtl8139 ] && want=100
  [ "$speed" = "$want" ] && [ "$duplex" = full ] || fail "link is $speed/$duplex, want $want/full"
}

net_checks() {
  if [ -n "${R_ip:-}" ]; then
    # run-guest --net tap: a static address on the host's tap subnet, no DHCP server there
    ip addr add "$R_ip" dev eth0 || fail "ip addr add $R_ip failed"
    GUEST_IP="${R_ip%/*}"
    result "static=ok ip=$GUEST_IP"
  else
    dhcp || fail "DHCP failed"
    result "dhcp=ok ip=$GUEST_IP"
  fi
  # ping once to warm up (QEMU's e1000 drops its first frame after link-up)
  ping -c 1 -W 2 "$PEER" >/dev/null 2>&1
  got="$(ping -c 3 -i 0.2 -W 2 "$PEER" 2>/dev/null | sed -n 's/.* \([0-9]*\) packets received.*/\1/p')"
  result "ping=${got:-0}/3"
  [ "${got:-0}" -ge 1 ] || fail "no ping reply from $PEER"
}

# Full-size frames both ways: the bulk transfers over -netdev user
# arrive in segments of about 1000 bytes, so a driver that drops every full-size received frame
# (RxMaxSize programmed to 1500, say) would pass them. An ICMP echo to the slirp gateway comes
# back at the size it was sent: -s 1472 is a 1514-byte frame (MTU 1500) each way. Jumbo frames
# are checked in the lab (guest-tests/lab/frames.sh): slirp answers no echo request larger than
# its 1500-byte MTU (a 6014-byte request left the model and nothing came back).
frame_checks() {
  rx0="$(netstat_of rx_packets)"
  got="$(ping -c 3 -i 0.2 -W 2 -s 1472 "$PEER" 2>/dev/null | sed -n 's/.* \([0-9]*\) packets received.*/\1/p')"
  result "frames=1514:${got:-0}/3 rx_packets=$(($(netstat_of rx_packets) - rx0)) rx_length_errors=$(cat /sys/class/net/eth0/statistics/rx_length_errors 2>/dev/null || echo -)"
  [ "${got:-0}" -eq 3 ] || fail "full-size frames lost: ${got:-0}/3 echo replies of 1514-byte frames at MTU 1500"
}

# A NIC must never reorder frames. TcpExt TCPOFOQueue counts TCP segments
# that arrived ahead of a hole; without a lost frame there is no hole, so any such segment was
# reordered on the way. Fails the scenario when TCPOFOQueue > 0 while eth0 counted no loss or
# error (RX/TX errs, drop, fifo, frame: /proc/net/dev) and the guest's own stack dropped no
# received segment (stack_drops: TcpExt TCPRcvQDrop, TCPBacklogDrop, TCPZeroWindowDrop,
# PFMemallocDrop, TCPMinTTLDrop, RcvPruned, Ip InDiscards, softnet backlog drops - each leaves
# a hole as a NIC's loss does); otherwise it only reports.
tcp_ofo_queue() { guest_tcp_ofo </proc/net/netstat; }
stack_drops() {
  echo $(( $(cat /proc/net/netstat /proc/net/snmp | guest_stack_drops) + $(guest_softnet_drops) ))
}
order_checks() {
  ofo="$(tcp_ofo_queue)"
  losses="$(awk '$1 == "eth0:" { print $4 + $5 + $6 + $7 + $12 + $13 + $14; f = 1 } END { if (!f) print 0 }' /proc/net/dev)"
  drops="$(stack_drops)"
  result "tcp_ofo_queue=$ofo eth0_losses=$losses stack_drops=$drops"
  [ "$ofo" -eq 0 ] && return 0
  [ "$losses" -gt 0 ] && return 0
  [ "$drops" -gt 0 ] && return 0
  fail "frames reordered: TcpExt TCPOFOQueue=$ofo while eth0 lost no frame (a NIC must never reorder)"
}
