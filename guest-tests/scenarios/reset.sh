# SPDX-License-Identifier: GPL-2.0-or-later
# reset: the guest resets the NIC's PCI function while no driver holds it, then r8169 probes it
# again and the network works as at boot. The reset is the kernel's own (pci_reset_function
# through sysfs "reset"), by a secondary bus reset of the root port above the NIC when the
# kernel offers it ("bus" in reset_method): QEMU then resets the device behind the port (for
# -device vfio-user-pci a DEVICE_RESET to the server, which run-guest counts). RxConfig
# (0x44), read through /dev/mem with the driver unbound, shows what the reset cleared: r8169
# leaves its DMA burst and FIFO threshold bits there after remove (rtl_rx_close clears only
# the accept bits), a reset returns the register to its power-on value.
# host: sink=0 source=0 timeout=90 action=device-reset
. /scenarios/common.sh

probe_checks
link_checks
net_checks
bdf="$(basename "$(readlink -f /sys/class/net/eth0/device)")"
dev="/sys/bus/pci/devices/$bdf"
bar2="$(sed -n 3p "$dev/resource" | cut -d' ' -f1)"
echo "$bdf" >/sys/bus/pci/drivers/r8169/unbind || fail "unbind $bdf from r8169 failed"
rxcfg_before="$(devmem $((bar2 + 0x44)) 32 2>/dev/null || echo -)"
if grep -qw bus "$dev/reset_method" 2>/dev/null; then
  echo bus >"$dev/reset_method" 2>/dev/null || true
fi
method="$(cat "$dev/reset_method" 2>/dev/null || echo -)"
# The write's status is reported, not judged: after a bus reset the kernel waits for the link
# below the root port (pci_bridge_wait_for_secondary_bus) and may give up on QEMU's port with
# the function reset all the same; RxConfig and the rebind below judge the device.
err="$( { echo 1 >"$dev/reset"; } 2>&1)" && st=ok || st="error:$(echo "$err" | sed 's/.*: //' | tr ' ' _)"
rxcfg_after="$(devmem $((bar2 + 0x44)) 32 2>/dev/null || echo -)"
result "reset=$st method=$(echo $method | tr ' ' ,) rxconfig_before=$rxcfg_before rxconfig_after=$rxcfg_after"
[ "$st" = ok ] || [ "$method" = bus ] || fail "reset of $bdf failed (reset_method: $method): $err"
[ "$rxcfg_before" = - ] || [ "$rxcfg_before" != "$rxcfg_after" ] \
  || fail "RxConfig kept $rxcfg_before through the reset: the device was not reset"
echo "$bdf" >/sys/bus/pci/drivers/r8169/bind || fail "bind $bdf to r8169 failed"
guest_wait 100 test -e /sys/class/net/eth0 || fail "no eth0 after rebinding r8169"
ip link set eth0 up
probe_checks
link_checks
net_checks
pass "reset ($method), r8169 probed again, link, dhcp and ping ok"
