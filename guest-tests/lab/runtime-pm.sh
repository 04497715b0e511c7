# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "runtime-pm": r8169's runtime power management and the chip's wake events (PME).
# The DUT advertises PME from D3hot (x-pme=on), as the real chips do, so r8169 enables runtime
# PM at probe (pci_dev_run_wake). Its idle callback (rtl8169_runtime_idle) schedules a suspend
# 10 s after it finds the interface down or without carrier; rtl8169_runtime_suspend arms the
# link-up wake alone (__rtl8169_set_wol(tp, WAKE_PHY): Config3 LinkUp, Config5 LanWake) and the
# PCI core puts the function in D3hot with PME enabled. The chip signals PME when an armed
# event happens (the model: model/src/wake.h; the QEMU shim sets PME_Status); the kernel polls
# PME_Status of such devices once a second (pci_pme_list_scan) and resumes the device
# (rtl8169_runtime_resume -> rtl8169_up).
#   phase link: the DUT's cable is pulled at LAB_down_s (20 s, the link fault scheduled by the
#     case's properties) and plugged back at LAB_up_s (50 s). power/control is auto: the device
#     must reach runtime_status suspended while the link is down, resume by itself once the
#     link is back (no access from the guest wakes it meanwhile: this case reads only sysfs
#     attributes that do not resume it), and carry TCP both ways, every byte checked.
#   phase magic: Wake-on-LAN g (magic packet), the DUT's interface down, so the device
#     suspends again; the partner sends a magic packet for another station (must not wake
#     it), then one for the DUT (wake-tool magic): the device must resume (runtime_status
#     active, and its wakeup source activated: pci_pme_wakeup reports the PME through it, so
#     power/wakeup_active_count goes up) and then work again when brought up.
# The root port above the DUT is kept in D0 (power/control on): QEMU's root ports forward no
# PME message, so from a port in D3 the kernel's poll would never look at the DUT.
#   --arg bytes=4194304 (down_s and up_s are fixed by the properties below)
# lab-programs: lab-tool verify-tool wake-tool
# lab-dut-props: x-pme=on,faults=link:at=20s,,down;link:at=50s,,up
bytes="${LAB_bytes:-4194304}"; down_s=20; up_s=50
DUT_MAC=52:54:00:00:00:01
pw="/sys/bus/pci/devices/$A/power"
field() { sed -n "s/.* $1=\([-0-9a-zA-Z:,]*\).*/\1/p" "$2" | head -n1; }
now_ms() { echo $(( $(lab_now_ns) / 1000000 )); }
rstatus() { cat "$pw/runtime_status" 2>/dev/null; }
is_status() { [ "$(rstatus)" = "$1" ]; }
no_carrier() { [ "$(cat "/sys/class/net/$IFA/carrier" 2>/dev/null)" != 1 ]; }
# wait until runtime_status is $1, at most $2 tenths of a second; prints the time it took (ms)
wait_status() {
  w0=$(now_ms)
  guest_wait "$2" is_status "$1" || return 1
  echo $(( $(now_ms) - w0 ))
}
lab_fault_in_time $((down_s * 1000)) 1000
[ -f "$pw/runtime_status" ] || lab_fail "no runtime PM in sysfs ($pw/runtime_status): the kernel lacks CONFIG_PM"
port_dev="$(basename "$(readlink -f "/sys/bus/pci/devices/$A/..")")"
[ -w "/sys/bus/pci/devices/$port_dev/power/control" ] && echo on >"/sys/bus/pci/devices/$port_dev/power/control"
echo auto >"$pw/control" || lab_fail "power/control auto refused"
lab_result "phase=setup runtime_status=$(rstatus) port=$port_dev wakeup=$(cat "$pw/wakeup")"

# ---- phase link ----
guest_wait 400 no_carrier ||
  lab_fail "link: the carrier did not drop at ${down_s} s (the link fault of the case's properties)"
t_susp=$(wait_status suspended 200) ||
  lab_fail "link: the DUT did not runtime-suspend within 20 s of losing its link (runtime_status $(rstatus); r8169 schedules it 10 s after rtl8169_runtime_idle)"
lab_result "phase=link suspended_after_ms=$t_susp at_ms=$(now_ms)"
[ "$(now_ms)" -lt $((up_s * 1000)) ] || lab_fail "link: suspended only at $(now_ms) ms, after the link came back at ${up_s} s"
# nothing touches the device until the link is back; then it must resume by itself
usleep $(( (up_s * 1000 - $(now_ms)) * 1000 ))
t_wake=$(wait_status active 100) ||
  lab_fail "link: the DUT stayed runtime-suspended 10 s after its link came back (runtime_status $(rstatus)): no PME for the link-up (the driver must arm Config3 LinkUp and Config5 LanWake before suspending)"
lab_wait_link 100 || lab_fail "link: resumed, but no carrier 10 s later"
rm -f /tmp/ready-a /tmp/ready-b
ns env LAB_READY=/tmp/ready-b verify-tool tcp-recv 5701 "$bytes" 30000 >/tmp/recv-partner.out &
RB=$!
LAB_READY=/tmp/ready-a verify-tool tcp-recv 5702 "$bytes" 30000 >/tmp/recv-dut.out &
RA=$!
lab_wait_file /tmp/ready-a 50 && lab_wait_file /tmp/ready-b 50 || lab_fail "receivers not ready"
verify-tool tcp-send 10.9.0.2 5701 "$bytes" 30000 >/dev/null &
SA=$!
ns verify-tool tcp-send 10.9.0.1 5702 "$bytes" 30000 >/dev/null
wait "$SA" "$RA" "$RB"
got_b=$(field bytes /tmp/recv-partner.out); bad_b=$(field bad /tmp/recv-partner.out)
got_a=$(field bytes /tmp/recv-dut.out); bad_a=$(field bad /tmp/recv-dut.out)
lab_result "phase=link woke_after_ms=$t_wake dut_to_partner=${got_b:-0}/$bytes bad=${bad_b:-?} partner_to_dut=${got_a:-0}/$bytes bad=${bad_a:-?} runtime_status=$(rstatus)"
[ "${got_b:-0}" -eq "$bytes" ] && [ "${bad_b:-1}" -eq 0 ] && [ "${got_a:-0}" -eq "$bytes" ] && [ "${bad_a:-1}" -eq 0 ] ||
  lab_fail "link: after the wake, TCP DUT->partner ${got_b:-0}/$bytes (${bad_b:-?} wrong), partner->DUT ${got_a:-0}/$bytes (${bad_a:-?} wrong)"

# ---- phase magic ----
ethtool -s "$IFA" wol g || lab_fail "ethtool -s $IFA wol g"
ip link set "$IFA" down || lab_fail "ip link set $IFA down"
t_susp=$(wait_status suspended 200) ||
  lab_fail "magic: the DUT did not runtime-suspend within 20 s of its interface going down (runtime_status $(rstatus))"
lab_carrier_b || guest_wait 50 lab_carrier_b || lab_fail "magic: the partner has no carrier with the DUT down (WoL keeps the DUT's PHY up)"
wc0=$(cat "$pw/wakeup_active_count" 2>/dev/null || echo 0)
ns wake-tool magic "$IFB" "$DUT_MAC" 52:54:00:00:00:09 >/tmp/magic-other.out || lab_fail "magic: wake-tool (another station's pattern) failed: $(cat /tmp/magic-other.out)"
usleep 3000000
[ "$(rstatus)" = suspended ] ||
  lab_fail "magic: another station's magic packet woke the DUT (runtime_status $(rstatus))"
ns wake-tool magic "$IFB" "$DUT_MAC" "$DUT_MAC" >/tmp/magic.out || lab_fail "magic: wake-tool failed: $(cat /tmp/magic.out)"
t_wake=$(wait_status active 50) ||
  lab_fail "magic: the DUT stayed runtime-suspended 5 s after the magic packet (runtime_status $(rstatus)): no PME (the driver must arm the magic packet where the chip looks: Config3 MagicPacket on the 8168c, and Config5 LanWake)"
wc1=$(cat "$pw/wakeup_active_count" 2>/dev/null || echo 0)
ip link set "$IFA" up || lab_fail "ip link set $IFA up"
lab_wait_link 100 || lab_fail "magic: no carrier after ip link set up"
lab_ping || lab_fail "magic: no ping after the interface came back up"
lab_result "phase=magic suspended_after_ms=$t_susp woke_after_ms=$t_wake wakeup_active_count=$wc0..$wc1"
[ "$wc1" -gt "$wc0" ] || lab_fail "magic: the DUT resumed but its wakeup source was not activated (power/wakeup_active_count $wc0 -> $wc1): not woken by its PME"
wd=$(cat "/sys/class/net/$IFA/queues/tx-0/tx_timeout" 2>/dev/null || echo 0)
[ "$wd" -eq 0 ] || lab_fail "$wd TX timeouts"
lab_result "what=summary bytes=$bytes tx_timeouts=$wd"
lab_done "runtime-suspended without link and woken by the link-up PME (TCP both ways verified after), suspended with the interface down and woken by a magic packet (not by another station's)"
