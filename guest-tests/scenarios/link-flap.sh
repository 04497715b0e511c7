# SPDX-License-Identifier: GPL-2.0-or-later
# link-flap: while the pattern streams to the peer, the host runs `set_link nic0 off` (the NIC's id), waits
# and runs `set_link nic0 on` on the QEMU monitor. The guest must see the carrier drop and
# come back (driver logs link down/up) and the transfer must complete, verified by the peer.
# host: sink=1 source=0 bytes=128M action=link-flap timeout=240
. /scenarios/common.sh

probe_checks
link_checks
net_checks
guest_dmesg_clear

tx_stream "$BYTES" "$R_sink" >/tmp/tx.out 2>&1 &
txpid=$!
step transfer-running
wait_carrier 0 30 || fail "carrier never dropped after set_link off"
t_down="$(cut -d' ' -f1 /proc/uptime)"
wait_carrier 1 30 || fail "carrier did not come back after set_link on"
t_up="$(cut -d' ' -f1 /proc/uptime)"
result "carrier_down_at=$t_down carrier_up_at=$t_up"
wait $txpid; rc=$?
cat /tmp/tx.out
[ "$rc" -eq 0 ] || fail "the transfer across the link flap failed"
down="$(dmesg | grep -iE 'link (is )?down' | head -1)"
up="$(dmesg | grep -iE 'link (is )?up' | tail -1)"
echo "  $down"; echo "  $up"
result "logged_down=$([ -n "$down" ] && echo yes || echo no) logged_up=$([ -n "$up" ] && echo yes || echo no)"
# r8169 reports link changes through phylib ("eth0: Link is Down", "Link is Up - 1Gbps/Full");
# QEMU's virtio-net driver changes the carrier silently
if [ "$NIC" = rtl8168 ]; then
  [ -n "$down" ] || fail "the driver did not log link down"
  [ -n "$up" ] || fail "the driver did not log link up"
fi
link_checks
pass "link down/up logged, transfer across the flap verified"
