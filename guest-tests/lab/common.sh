# SPDX-License-Identifier: GPL-2.0-or-later
# Shared helpers of the closed-world lab (sourced by /init before the case).
# Variables for the cases after lab_setup:
#   IFA   the DUT's interface (root namespace, 10.9.0.1)   A  its PCI address
#   IFB   the partner's interface (namespace $NS, 10.9.0.2) B  its PCI address
#   NS    pid of the process holding the partner's network namespace
#   LAB_driver rtl8168sim|r8169, LAB_params the module parameters, LAB_<k> from --arg k=v
# Output: lab_result k=v ... -> "RESULT case=<case> k=v ...";  lab_done / lab_fail REASON end
# the run with exactly one "VERDICT PASS|FAIL <case> <reason>" line (the one end line of every
# guest, scripts/lablib/protocol.py) and power off. The helpers every guest shares (verdict,
# power-off, diagnostics, waiting, TCPOFOQueue) are /etc/guest-lib.sh
# (guest-tests/initramfs/guest-lib.sh, in the lab's overlay).
. /etc/guest-lib.sh

LAB_params="$(cat /lab/params 2>/dev/null)"

lab_log() { echo "LAB: $*"; }
lab_result() { echo "RESULT case=$LAB_case $*"; }
lab_uptime() { cut -d' ' -f1 /proc/uptime; }
lab_now_ns() { lab-tool now; }
# run a command in the partner's namespace
ns() { nsenter -t "$NS" -n "$@"; }

lab_diag() { guest_diag "${IFA:-}" "${NS:-}"; }

# TcpExt TCPOFOQueue of the network namespace whose /proc/net/netstat is on stdin: TCP
# segments that arrived ahead of a hole and waited in the out-of-order queue
lab_ofo() { guest_tcp_ofo; }

# frames one NIC lost or errored in either direction (/proc/net/dev of its namespace on stdin:
# RX errs+drop+fifo+frame, TX errs+drop+fifo; $1 = interface) plus its tally rx_missed ($2)
lab_nic_losses() {
  awk -v i="$1:" -v m="${2:-0}" '$1 == i { s = $4 + $5 + $6 + $7 + $12 + $13 + $14 } END { print s + m }'
}

# receive-side drops of the guest's own stack: guest_stack_drops, guest_drop_detail and
# guest_softnet_drops (/etc/guest-lib.sh)

# packets the qdiscs of interface $1 dropped in the current namespace (lab-tool qdisc-drops;
# 0 when the case's overlay has no lab-tool). Debian kernels default to fq_codel: CoDel drops
# at dequeue an skb TCP has already counted as sent (one whole GSO skb, e.g. 43 segments of
# 1448 bytes), a hole that no NIC counter shows. Found 2026-12-05: msi-lost-irq, 6.12, fixed
# driver, partner TCPOFOQueue 3 after the DUT's qdisc dropped one 62264-byte GSO skb (pcap of
# the lab's hub: IP IDs 52752-52794 never on the wire, the data retransmitted with new IDs).
# ($2 = "ns": in the partner's namespace)
lab_qdisc_drops() {
  command -v lab-tool >/dev/null 2>&1 || { echo 0; return; }
  if [ "${2:-}" = ns ]; then ns lab-tool qdisc-drops "$1"; else lab-tool qdisc-drops "$1"; fi 2>/dev/null |
    awk '/^[0-9]+$/ { v = $1 } END { print v + 0 }'
}

# A NIC must never reorder frames: every TCP segment that waited in an
# out-of-order queue (TCPOFOQueue) needs a hole in front of it, i.e. a frame that some NIC
# lost (counted drop/miss/error, a TX watchdog reset), that a qdisc dropped after TCP sent it
# (lab_qdisc_drops) or that a namespace's stack dropped on receive (guest_stack_drops,
# guest_softnet_drops). TCPOFOQueue > 0 in a run where nothing was
# lost is a reordering device: the case fails. LAB_ofo_check=0 (--arg ofo_check=0) only
# reports.
lab_check_order() {
  [ -n "${NS:-}" ] && [ -n "${IFA:-}" ] && [ -n "${IFB:-}" ] || return 0
  ofo_a=$(lab_ofo </proc/net/netstat)
  ofo_b=$(ns cat /proc/net/netstat | lab_ofo)
  loss_a=$(lab_nic_losses "$IFA" "$(lab_stat rx_missed)" </proc/net/dev)
  loss_b=$(ns cat /proc/net/dev | lab_nic_losses "$IFB" "$(ns ethtool -S "$IFB" 2>/dev/null | awk '$1 == "rx_missed:" {print $2}')")
  wd=$(cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0)
  stack_a=$(cat /proc/net/netstat /proc/net/snmp | guest_stack_drops)
  stack_b=$(ns cat /proc/net/netstat /proc/net/snmp | guest_stack_drops)
  softnet=$(guest_softnet_drops)
  qd_a=$(lab_qdisc_drops "$IFA")
  qd_b=$(lab_qdisc_drops "$IFB" ns)
  lab_log "order: tcp_ofo_queue dut_ns=$ofo_a partner_ns=$ofo_b nic_losses dut=$loss_a partner=$loss_b dut_tx_timeouts=$wd stack_drops dut_ns=$stack_a partner_ns=$stack_b softnet=$softnet qdisc_drops dut=$qd_a partner=$qd_b"
  [ "$ofo_a" -eq 0 ] && [ "$ofo_b" -eq 0 ] && return 0
  if [ "$stack_a" -gt 0 ] || [ "$stack_b" -gt 0 ] || [ "$softnet" -gt 0 ] || [ "$qd_a" -gt 0 ] || [ "$qd_b" -gt 0 ]; then
    lab_log "order: out-of-order TCP segments follow segments the guest itself dropped (qdiscs $qd_a + $qd_b, stack $stack_a + $stack_b, softnet $softnet): holes, not reordering"
    [ "$stack_a" -gt 0 ] || [ "$stack_b" -gt 0 ] &&
      lab_log "order: stack drops: dut_ns $(cat /proc/net/netstat /proc/net/snmp | guest_drop_detail); partner_ns $(ns cat /proc/net/netstat /proc/net/snmp | guest_drop_detail)"
    return 0
  fi
  if [ "$loss_a" -gt 0 ] || [ "$loss_b" -gt 0 ] || [ "$wd" -gt 0 ]; then
    lab_log "order: out-of-order TCP segments follow frames a NIC lost ($loss_a + $loss_b, $wd TX timeouts): holes, not reordering"
    # which counters (rx errs drop fifo frame / tx errs drop fifo, tally rx_missed)
    lab_log "order: dut $(awk -v i="$IFA:" '$1 == i { print "rx", $4, $5, $6, $7, "tx", $12, $13, $14 }' /proc/net/dev) rx_missed $(lab_stat rx_missed); partner $(ns cat /proc/net/dev | awk -v i="$IFB:" '$1 == i { print "rx", $4, $5, $6, $7, "tx", $12, $13, $14 }') rx_missed $(ns ethtool -S "$IFB" 2>/dev/null | awk '$1 == "rx_missed:" {print $2}')"
    return 0
  fi
  [ "${LAB_ofo_check:-1}" = 0 ] && { lab_log "order: check disabled (ofo_check=0)"; return 0; }
  lab_fail "frames reordered: TcpExt TCPOFOQueue root-ns=$ofo_a partner-ns=$ofo_b while no NIC lost a frame (a NIC must never reorder)"
}

lab_done() {
  lab_check_order
  guest_verdict PASS "${LAB_case:-lab}" "${*:-ok}"
}

lab_fail() {
  lab_diag
  guest_verdict FAIL "${LAB_case:-lab}" "$*"
}

# guest-side bound in virtual seconds (LAB_deadline, default 150): a run that would never end
# prints VERDICT FAIL and powers off
lab_deadline() {
  ( sleep "${LAB_deadline:-150}"; lab_fail "guest deadline ${LAB_deadline:-150} s (virtual)" ) &
}

# Load the modules of the case's "# lab-modules:" line, which run-lab puts in the overlay and
# lists in load order in /lab/modules ($* names them, for the message when it is missing)
lab_load_modules() {
  [ -f /lab/modules ] || lab_fail "no /lab/modules (run-lab puts $* there)"
  while read -r m; do
    insmod "$m" 2>/tmp/insmod.err || grep -q "File exists" /tmp/insmod.err ||
      lab_fail "insmod $m: $(cat /tmp/insmod.err)"
  done </lab/modules
}

# ethtool -S counter of the DUT (0 when absent)
lab_stat() { ethtool -S "${2:-$IFA}" 2>/dev/null | awk -v k="$1:" '$1 == k {print $2; f=1} END {if (!f) print 0}'; }

# interrupts taken by the DUT (sum over CPUs of the /proc/interrupts line named after $IFA)
lab_irqs() {
  awk -v n="${1:-$IFA}" '$NF == n { s = 0; for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i; else break; print s; f = 1 }
    END { if (!f) print 0 }' /proc/interrupts
}

# 16-bit register of the DUT from `ethtool -d IF hex on` (hex offset, e.g. 3c); prints decimal.
# "hex on": for r8169, plain `ethtool -d` is pretty-printed by ethtool's realtek decoder.
lab_reg16() {
  ethtool -d "${2:-$IFA}" hex on 2>/dev/null | awk -v off="$1" '
    BEGIN { o = 0; for (i = 1; i <= length(off); i++) o = o * 16 + index("0123456789abcdef", tolower(substr(off, i, 1))) - 1 }
    /^0x[0-9a-fA-F]+:/ {
      base = 0; s = substr($1, 3, length($1) - 3)
      for (i = 1; i <= length(s); i++) base = base * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
      for (j = 2; j <= NF; j++) byte[base + j - 2] = $j
    }
    END {
      lo = byte[o]; hi = byte[o + 1]
      if (lo == "" || hi == "") { print -1; exit }
      v = 0; h = hi lo
      for (i = 1; i <= 4; i++) v = v * 16 + index("0123456789abcdef", tolower(substr(h, i, 1))) - 1
      print v
    }'
}

# wait until $1 (a file) exists, at most $2 tenths of a second
lab_wait_file() { guest_wait "${2:-100}" [ -f "$1" ]; }

# The paced-stream cases of the error-path episodes (syserr.sh, tx-timeout.sh: a fault at
# virtual time AT_MS while the DUT sends a paced UDP stream to the partner from LEAD_MS before):
# lab_fault_in_time AT_MS LEAD_MS  fails the case when the setup ended too late for that
# lab_paced_stream PORT COUNT INTERVAL_US AT_MS LEAD_MS MAX_MS
#   the partner receives (fault-tool udp-gap, RESULT in /tmp/gap), the DUT waits for
#   AT_MS - LEAD_MS and paces COUNT datagrams (fault-tool udp-pace, RESULT in /tmp/pace), then
#   waits for the receiver's RESULT; lab_gap KEY prints one field of it
lab_fault_in_time() {
  now_ms=$(( $(lab_now_ns) / 1000000 ))
  [ "$now_ms" -lt $(($1 - $2 - 200)) ] ||
    lab_fail "setup ended at $now_ms ms (virtual), too late for the fault at $1 ms: raise --arg fault_at_ms and the property together"
}
lab_paced_stream() {
  ns env LAB_READY=/tmp/ready fault-tool udp-gap "$1" "$2" "$6" >/tmp/gap &
  lab_wait_file /tmp/ready 50 || lab_fail "receiver not ready"
  now_ms=$(( $(lab_now_ns) / 1000000 ))
  [ "$now_ms" -lt $(($4 - $5)) ] && usleep $(( ($4 - $5 - now_ms) * 1000 ))
  lab_log "stream starts at $(( $(lab_now_ns) / 1000000 )) ms, fault at $4 ms"
  fault-tool udp-pace 10.9.0.2 "$1" "$2" "$3" >/tmp/pace
  n=0; while ! grep -q RESULT /tmp/gap 2>/dev/null; do
    n=$((n+1)); [ "$n" -gt $(( $6 / 100 + 50 )) ] && lab_fail "receiver did not finish"; usleep 100000
  done
  cat /tmp/pace /tmp/gap
}
lab_gap() { grep -oE "$1=[-0-9]+" /tmp/gap | head -n1 | cut -d= -f2; }

lab_carrier_a() { guest_carrier "$IFA"; }
lab_carrier_b() { ns ip link show "$IFB" 2>/dev/null | grep -q LOWER_UP; }
lab_carrier_both() { lab_carrier_a && lab_carrier_b; }
# both ends have carrier, waiting at most $1 tenths of a second
lab_wait_link() { guest_wait "${1:-100}" lab_carrier_both; }

lab_ping() {
  ping -c 1 -W 2 10.9.0.2 >/tmp/ping 2>&1 || ping -c 1 -W 2 10.9.0.2 >/tmp/ping 2>&1 ||
    ping -c 1 -W 2 10.9.0.2 >/tmp/ping 2>&1
}

lab_rebind_dut() {
  [ -e /sys/bus/pci/devices/$A/driver ] || return 1
  echo "$A" >/sys/bus/pci/devices/$A/driver/unbind
  echo "$A" >/sys/bus/pci/drivers_probe
  n=0
  while [ ! -d /sys/bus/pci/devices/$A/net ]; do
    n=$((n+1)); [ "$n" -gt 50 ] && return 1; usleep 100000
  done
  [ "$(basename "$(readlink /sys/bus/pci/devices/$A/driver)")" = "$LAB_driver" ]
}

lab_setup() {
  echo "LAB kernel=$(uname -r) case=$LAB_case driver=$LAB_driver params='$LAB_params' uptime=$(lab_uptime)"
  lab_deadline
  devs=""
  # the DUT (first in bus order) and the partner: RTL8168 (10ec:8168) or RTL8125 (10ec:8125)
  for d in /sys/bus/pci/devices/*; do
    [ "$(cat $d/vendor)" = 0x10ec ] || continue
    case "$(cat $d/device)" in 0x8168|0x8125) devs="$devs ${d##*/}";; esac
  done
  set -- $devs
  A="$1"; B="$2"
  [ -n "$B" ] || lab_fail "need two 10ec:8168/8125 devices, found '$devs'"
  echo "$LAB_driver" >/sys/bus/pci/devices/$A/driver_override
  echo r8169 >/sys/bus/pci/devices/$B/driver_override
  for m in libphy mdio_devres realtek r8169; do modprobe $m || lab_fail "modprobe $m"; done
  if [ "$LAB_driver" = rtl8168sim ]; then
    insmod /lib/modules/$(uname -r)/extra/rtl8168sim.ko $LAB_params || lab_fail "insmod rtl8168sim $LAB_params"
  fi
  n=0
  while [ ! -d /sys/bus/pci/devices/$A/net ] || [ ! -d /sys/bus/pci/devices/$B/net ]; do
    n=$((n+1)); [ "$n" -gt 50 ] && lab_fail "NICs not bound"; usleep 100000
  done
  # (|| branch: a kernel of your own with r8169 built in bound the DUT at boot; lab_rebind_dut
  # hands it over. Debian's kernels never take it, so their runs execute what they always did:
  # the episodes' races are sensitive to every instruction of guest time, docs/REPRODUCE.md)
  [ "$(basename "$(readlink /sys/bus/pci/devices/$A/driver)")" = "$LAB_driver" ] || lab_rebind_dut || lab_fail "$A not bound to $LAB_driver"
  [ "$(basename "$(readlink /sys/bus/pci/devices/$B/driver)")" = r8169 ] || lab_fail "$B not bound to r8169"
  IFA="$(ls /sys/bus/pci/devices/$A/net)"; IFB="$(ls /sys/bus/pci/devices/$B/net)"
  [ "$(cat /sys/class/net/$IFA/address)" = 52:54:00:00:00:01 ] || lab_fail "DUT $A/$IFA has MAC $(cat /sys/class/net/$IFA/address), not the dut's"
  unshare -n sleep 1000000000 &
  NS=$!
  usleep 300000
  ip link set "$IFB" netns $NS || lab_fail "ip link set $IFB netns"
  ns ip link set lo up
  ns ip addr add 10.9.0.2/24 dev "$IFB"
  ns ip link set "$IFB" up
  ip link set lo up
  ip addr add 10.9.0.1/24 dev "$IFA"
  ip link set "$IFA" up
  lab_wait_link || lab_fail "no carrier ($IFA $(cat /sys/class/net/$IFA/carrier 2>/dev/null))"
  lab_ping || { cat /tmp/ping; lab_fail "ping 10.9.0.2"; }
  irqkind="$(grep -E " $IFA\$" /proc/interrupts | grep -oE 'PCI-MSI|IO-APIC|MSI' | head -n1)"
  lab_log "dut=$A/$IFA ($LAB_driver, ${irqkind:-irq?}) partner=$B/$IFB ready uptime=$(lab_uptime)"
  lab_result "setup=ok dut_driver=$LAB_driver irq=${irqkind:-unknown}"
}
