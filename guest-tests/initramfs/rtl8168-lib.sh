# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers shared by /init and the scenarios (sourced; busybox sh). What every guest shares
# (verdict line, power-off, waiting, TCPOFOQueue) is /etc/guest-lib.sh (guest-lib.sh here).
. /etc/guest-lib.sh

step() { echo "STEP scenario=$SCENARIO $*"; }
result() { echo "RESULT scenario=$SCENARIO $*"; }

# Print the last kernel messages (indented, so they never parse as result lines).
dump_diagnostics() {
  echo "--- dmesg (last 40 lines)"
  dmesg | tail -40 | sed 's/^/  /'
  echo "--- /proc/interrupts"
  sed 's/^/  /' /proc/interrupts 2>/dev/null | grep -vE ' 0 +[A-Za-z-]+ +[0-9]+-edge +(i8042|rtc)' | head -30
  echo "---"
}

fail() {
  dump_diagnostics
  guest_verdict FAIL "$SCENARIO" "$*"
}

pass() {
  # rtl8168.debug=1 on the kernel command line: the whole kernel log before the verdict
  [ "${R_debug:-0}" = 1 ] && dmesg | sed 's/^/  /'
  guest_verdict PASS "$SCENARIO" "${*:-ok}"
}

# check DESCRIPTION COMMAND...: run COMMAND, fail the scenario with DESCRIPTION if it fails.
check() {
  what="$1"; shift
  "$@" || fail "$what"
}

# Load the driver for $NIC. rtl8168 → r8169 with the realtek PHY driver (a softdep only).
load_nic_driver() {
  case "$NIC" in
    rtl8168) mods="libphy mdio_devres realtek r8169";;
    e1000e) mods="e1000e";;
    rtl8139) mods="8139cp";;
    virtio) mods="virtio_pci virtio_net";;
    *) echo "unknown nic '$NIC'"; return 1;;
  esac
  for m in $mods; do
    # built-in on some kernels (6.12: virtio_pci; 7.2: libphy, mdio_devres), or everything is
    # (a kernel tree of your own with CONFIG_MODULES off has no /proc/modules)
    [ -e /proc/modules ] || break
    [ -d "/sys/module/$m" ] && continue
    grep -qs "/$m.ko\$" "/lib/modules/$(uname -r)/modules.builtin" && continue
    modprobe "$m" || { echo "modprobe $m failed"; return 1; }
  done
  DRIVER="$(echo "$mods" | awk '{print $NF}')"
  export DRIVER
}

# Wait up to $1 tenths of a second for eth0 to exist.
wait_eth0() { guest_wait "${1:-100}" [ -e /sys/class/net/eth0 ]; }

net_up() {
  ip link set lo up
  wait_eth0 100 || return 1
  ip link set eth0 up
}

# Wait up to $1 seconds for carrier on eth0.
wait_link() { guest_wait "$(( ${1:-10} * 10 ))" guest_carrier eth0; }

# DHCP over slirp; the lease file is written by /usr/share/udhcpc/default.script.
dhcp() {
  rm -f /tmp/dhcp.lease
  udhcpc -s /usr/share/udhcpc/default.script -i eth0 -n -q -t 5 -T 1 -A 1 >/tmp/udhcpc.log 2>&1
  [ -f /tmp/dhcp.lease ] || { sed 's/^/  udhcpc: /' /tmp/udhcpc.log; return 1; }
  GUEST_IP="$(sed -n 's/.* ip=\([^ ]*\).*/\1/p' /tmp/dhcp.lease)"
  export GUEST_IP
}

# Counters of eth0 from sysfs (the driver's software counters).
netstat_of() { cat "/sys/class/net/eth0/statistics/$1"; }

# The project's guest traffic program (guest-tests/programs/rtl-traffic.c, static C):
# one "RESULT tool=... status=ok bytes=N ns=N mbps=X ..." line; exit 0 only when ok.
TRAFFIC_TIMEOUT="${R_traffic_timeout:-150}"
traffic() {  # DIR(tx|rx) ARGS... → RESULT line re-issued with scenario and dir
  dir="$1"; shift
  command -v rtl-traffic >/dev/null 2>&1 || { echo "no rtl-traffic in the image"; return 1; }
  out="$(rtl-traffic --no-sha --timeout "$TRAFFIC_TIMEOUT" "$@" 2>/tmp/traffic.err)"; rc=$?
  [ -s /tmp/traffic.err ] && sed 's/^/  rtl-traffic: /' /tmp/traffic.err
  line="$(echo "$out" | grep '^RESULT ' | tail -1)"
  result "dir=$dir rc=$rc ${line#RESULT }"
  [ "$rc" -eq 0 ] && echo "$line" | grep -q ' status=ok'
}

# tx_stream BYTES PORT: send BYTES of the deterministic pattern to the peer's sink.
# rx_stream BYTES PORT: receive BYTES from the peer's source; the pattern is verified.
tx_stream() { traffic tx stream-send "$PEER" "$2" "$1"; }
rx_stream() { traffic rx --expect-bytes "$1" stream-recv "$PEER" "$2"; }
