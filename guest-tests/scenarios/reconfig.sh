# SPDX-License-Identifier: GPL-2.0-or-later
# reconfig: the driver's configuration changed while traffic flows ("MTU changes under
# traffic", "ethtool -G/-C/-A/-s/-K changes under traffic", "ifdown/ifup and module unload/reload
# under traffic"). Each change is made while a guest->host stream of the pattern runs (the peer's
# sink verifies every byte and the length), and the stream must complete:
#   mtu      MTU to the chip's largest (the device's max_mtu: r8169's rtl_jumbo_max for the chip)
#            and back to 1500, then full-size frames at 1500 (frame_checks)
#   coalesce ethtool -C rx-usecs/tx-usecs (r8169's interrupt mitigation, IntrMitigate 0xe2) and back
#   pause    ethtool -A rx/tx off and back (r8169 through phylib's pause advertisement)
#   speed    ethtool -s speed 100 duplex full autoneg off, then autoneg on: the link goes down and
#            comes back at 100 then at the chip's speed; TCP retransmits across the gaps
#   features ethtool -K tso/sg/tx off and back on
#   ifdown   ip link set eth0 down and up (r8169's close and open: rings freed and rebuilt)
#   rings    ethtool -G: r8169 has no set_ringparam (its rings are fixed at 256 TX / 256 RX), so
#            the change is refused; reported, not judged
# then, with a ping load running, `rmmod r8169` and `modprobe r8169` (the ping fails in between),
# and after the reload DHCP, a verified transfer each way. A stream that a change breaks FAILs
# the scenario with the change's name; the kernel log is scanned for splats by run-guest as for
# every scenario. A change a driver does not support (ethtool answers "Operation not supported")
# is reported as unsupported, not failed.
# host: sink=7 source=1 bytes=32M timeout=360
. /scenarios/common.sh

probe_checks
link_checks
net_checks
command -v ethtool >/dev/null || fail "no ethtool in the image"
guest_dmesg_clear

# under NAME CMD...: start a guest->host stream, run CMD while it flows, wait for the stream.
# Reports whether the stream was still running when the change was done (during=yes): a change
# made after the stream ended tested nothing, so that FAILs too.
under() {
  name="$1"; shift
  tx_stream "$BYTES" "$R_sink" >/tmp/under.out 2>&1 &
  pid=$!
  usleep 200000
  step "change $name"
  "$@" >/tmp/change.out 2>&1; crc=$?
  during=no; kill -0 "$pid" 2>/dev/null && during=yes
  sed 's/^/  /' /tmp/change.out | head -5
  unsupported=no; grep -q 'Operation not supported' /tmp/change.out && unsupported=yes
  if [ "$crc" -ne 0 ] && [ "$unsupported" = no ]; then
    # the change itself failed: that is the cause, whatever becomes of the stream
    kill "$pid" 2>/dev/null; wait "$pid"
    result "change=$name rc=$crc unsupported=no during=$during stream_rc=killed"
    fail "'$name' failed (rc $crc): $(grep -v '^ *$' /tmp/change.out | head -1)"
  fi
  wait "$pid"; src=$?
  result "change=$name rc=$crc unsupported=$unsupported during=$during stream_rc=$src"
  [ "$src" -eq 0 ] || { cat /tmp/under.out; fail "the stream across '$name' failed"; }
  [ "$unsupported" = yes ] && return 0
  [ "$during" = yes ] || fail "the stream had ended before '$name' was done: raise bytes"
}

# the device's max_mtu (busybox's ip does not print it): the largest MTU the kernel accepts,
# found by bisection (dev_validate_mtu refuses more with EINVAL), then back to 1500
lo=1500 hi=65536
while [ $((hi - lo)) -gt 1 ]; do
  mid=$(((lo + hi) / 2))
  if ip link set eth0 mtu "$mid" 2>/dev/null; then lo=$mid; else hi=$mid; fi
done
max_mtu=$lo
ip link set eth0 mtu 1500 || fail "MTU 1500 refused"
result "max_mtu=$max_mtu"
[ "$max_mtu" -gt 1500 ] || fail "eth0 takes no MTU above 1500 (no jumbo frames)"
mtu_cycle() { ip link set eth0 mtu "$max_mtu" && usleep 300000 && ip link set eth0 mtu 1500; }
under mtu mtu_cycle
[ "$(cat /sys/class/net/eth0/mtu)" = 1500 ] || fail "MTU is $(cat /sys/class/net/eth0/mtu) after going back to 1500"
frame_checks

coal() { ethtool -c eth0 2>/dev/null | awk -v k="$1:" '$1 == k { print $2 }'; }
rx_us="$(coal rx-usecs)"; tx_us="$(coal tx-usecs)"
result "coalesce rx_usecs=${rx_us:-?} tx_usecs=${tx_us:-?}"
coalesce_cycle() {
  ethtool -C eth0 rx-usecs 100 tx-usecs 100 || return $?
  usleep 300000
  ethtool -C eth0 rx-usecs "${rx_us:-0}" tx-usecs "${tx_us:-0}"
}
under coalesce coalesce_cycle
pause_cycle() { ethtool -A eth0 rx off tx off && usleep 300000 && ethtool -A eth0 rx on tx on; }
under pause pause_cycle
speed_cycle() {
  ethtool -s eth0 speed 100 duplex full autoneg off || return $?
  wait_carrier 0 5; wait_carrier 1 10 || { echo "no carrier at 100/full"; return 1; }
  s100="$(cat /sys/class/net/eth0/speed)"
  ethtool -s eth0 autoneg on || return $?
  wait_carrier 0 5; wait_carrier 1 10 || { echo "no carrier after autoneg on"; return 1; }
  echo "forced=$s100 back=$(cat /sys/class/net/eth0/speed)"
  [ "$s100" = 100 ] || { echo "forced 100/full but the link came up at $s100"; return 1; }
}
under speed speed_cycle
link_checks
features_cycle() { ethtool -K eth0 tso off sg off tx off && usleep 300000 && ethtool -K eth0 tx on sg on tso on; }
under features features_cycle
ifdown_cycle() { ip link set eth0 down && usleep 300000 && ip link set eth0 up && wait_carrier 1 10; }
under ifdown ifdown_cycle

# ethtool -G: refused by r8169 (no set_ringparam), accepted by drivers that resize their rings
ethtool -g eth0 >/tmp/ring.out 2>&1
ethtool -G eth0 rx 128 tx 128 >/tmp/ringset.out 2>&1; grc=$?
result "change=rings rc=$grc $(awk '/^Current/ { c = 1 } c && /^RX:/ { printf "rx=%s ", $2 } c && /^TX:/ { printf "tx=%s", $2 }' /tmp/ring.out) $(head -1 /tmp/ringset.out | tr ' ' '_')"
[ $grc -eq 0 ] && ethtool -G eth0 rx "$(awk '/^Current/ { c = 1 } c && /^RX:/ { print $2 }' /tmp/ring.out)" tx "$(awk '/^Current/ { c = 1 } c && /^TX:/ { print $2 }' /tmp/ring.out)" >/dev/null 2>&1

# the driver unloaded and loaded again with a ping load running (replies stop in between)
ping -i 0.05 -W 1 "$PEER" >/tmp/ping.out 2>&1 &
ppid=$!
usleep 500000
step reload
ip link set eth0 down
rmmod "$DRIVER" || fail "rmmod $DRIVER failed"
modprobe "$DRIVER" || fail "modprobe $DRIVER failed"
net_up || fail "eth0 did not come back after the driver reload"
link_checks
net_checks
kill "$ppid" 2>/dev/null; wait "$ppid" 2>/dev/null
result "reload ping_replies=$(grep -c 'bytes from' /tmp/ping.out)"
check "guest->host transfer after the reload failed" tx_stream "$BYTES" "$R_sink"
check "host->guest transfer after the reload failed" rx_stream "$BYTES" "$R_source"
pass "MTU, coalescing, pause, speed, features and ifdown changed under traffic, driver reloaded, traffic verified"
