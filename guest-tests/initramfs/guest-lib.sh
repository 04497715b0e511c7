# SPDX-License-Identifier: GPL-2.0-or-later
# The helpers every guest carries (busybox sh, sourced), in one place: the scenarios' /init
# (through /etc/rtl8168-lib.sh), the lab's /lab/common.sh and the driver smoke test's
# smoke-init. In the image as /etc/guest-lib.sh (scripts/build-guest copies
# guest-tests/initramfs/* to /etc); the lab's and the smoke test's overlays carry their own
# copy (scripts/lablib/lab.py, smoke.py), so a run never depends on how recent the image is.
# Names start with guest_; each guest keeps its own wrappers (lab_*, fail/pass, ...).

# Power the guest off and never return: sync, the magic SysRq power-off, then poweroff -f
# (the sleep keeps the shell from running on while the kernel goes down).
guest_power_off() {
  sync
  echo o >/proc/sysrq-trigger 2>/dev/null
  poweroff -f
  sleep 100
}

# guest_verdict PASS|FAIL NAME REASON: the end line of every guest (scripts/lablib/protocol.py:
# "VERDICT PASS|FAIL <name> <reason>", exactly one), then power off. The kernel log goes to
# the console first (guest_kmsg_dump), so that the host can scan it for splats.
guest_verdict() {
  guest_kmsg_dump
  echo "VERDICT $*"
  guest_power_off
}

# The kernel log for the host's splat scan (scripts/lablib/splat.py; docs/REGRESS.md "Kernel
# splats"). The guests boot with console log level 4 (quiet / loglevel=4), so a WARN
# (KERN_WARNING) never reaches the console by itself: this prints, between two marker lines,
# every record of level warning or more severe since boot (raw, "<4>[   12.345678] ..."),
# including what guest_dmesg_clear took out of the buffer, plus the line after each "cut here"
# (a WARN's own message, whatever its level). Then the console level goes to 8: whatever the
# kernel prints while the guest powers off (the drivers' shutdown) reaches the console too.
guest_kmsg_dump() {
  guest_kmemleak_scan
  echo "---- kernel log (level <= warning) begin"
  { cat /tmp/guest-kmsg.cleared 2>/dev/null; dmesg -r; } | awk '
    cut { print "  " $0; cut = 0; next }
    /cut here/ { cut = 1 }
    /^<[0-4]>/ { print "  " $0 }
    /kmemleak: [0-9]+ new suspected memory leak/ { print "  " $0 }'
  echo "---- kernel log end"
  dmesg -n 8 2>/dev/null
}

# On a kernel with kmemleak (the debug kernel, guest-tests/kernel/debug.config, whose automatic
# scan is off): scan now, twice as kmemleak's documentation advises (an object must stay
# unreferenced over two scans), so a leak is reported by the entry that made it. The kernel
# logs "kmemleak: N new suspected memory leaks" (an info record, which guest_kmsg_dump passes
# on for the splat scan), and the first objects' reports go to the console for the diagnosis.
guest_kmemleak_scan() {
  _gk=/sys/kernel/debug/kmemleak
  [ -e "$_gk" ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
  [ -w "$_gk" ] || return 0
  echo scan >"$_gk" 2>/dev/null
  echo scan >"$_gk" 2>/dev/null
  head -40 "$_gk" | sed 's/^/  kmemleak| /'
}

# guest_dmesg_clear [FILE]: read and clear the kernel log in one step (dmesg -c) - FILE gets it
# as text, and the raw records are kept in /tmp/guest-kmsg.cleared for guest_kmsg_dump, so a
# scenario that clears the log between its steps hides nothing from the splat scan.
guest_dmesg_clear() {
  dmesg -c -r >/tmp/guest-kmsg.chunk
  cat /tmp/guest-kmsg.chunk >>/tmp/guest-kmsg.cleared
  sed 's/^<[0-9]*>//' /tmp/guest-kmsg.chunk >"${1:-/dev/null}"
}

# Diagnostics before a failure, indented so that no line parses as RESULT or VERDICT:
# guest_diag [IF [NS]] - the non-zero ethtool -S counters of IF, the network devices of the
# root namespace and of the network namespace held by pid NS, the NICs' interrupt lines, the
# kernel log's last 30 lines.
guest_diag() {
  echo "---- diagnostics"
  [ -n "${1:-}" ] && ethtool -S "$1" 2>/dev/null | grep -v ': 0$' | sed 's/^/  /'
  sed -n '3,$s/^/  /p' /proc/net/dev
  [ -n "${2:-}" ] && nsenter -t "$2" -n sed -n '3,$s/^/  ns: /p' /proc/net/dev
  grep -E 'CPU|eth|rtl|r8169' /proc/interrupts | sed 's/^/  /'
  dmesg | tail -30 | sed 's/^/  /'
}

# guest_wait TENTHS COMMAND...: run COMMAND every 100 ms until it succeeds, at most TENTHS
# times; fails (1) when it never did.
guest_wait() {
  _gw_max="$1"; shift
  _gw_n=0
  until "$@"; do
    _gw_n=$((_gw_n + 1)); [ "$_gw_n" -gt "$_gw_max" ] && return 1
    usleep 100000
  done
}

# guest_carrier IF: true when IF (in this network namespace) has carrier
guest_carrier() { [ "$(cat "/sys/class/net/$1/carrier" 2>/dev/null)" = 1 ]; }

# TcpExt TCPOFOQueue of the network namespace whose /proc/net/netstat is on stdin: TCP
# segments that arrived ahead of a hole and waited in the out-of-order queue (the input of
# the "a NIC never reorders" checks: lab_check_order, the scenarios' order_checks)
guest_tcp_ofo() {
  awk '/^TcpExt: [A-Z]/ { for (i = 2; i <= NF; i++) n[i] = $i; next }
       /^TcpExt: [0-9]/ { for (i = 2; i <= NF; i++) if (n[i] == "TCPOFOQueue") v = $i }
       END { print v + 0 }'
}

# segments the namespace's own IP/TCP stack dropped on receive (/proc/net/netstat then
# /proc/net/snmp on stdin): each leaves a hole just as a NIC's loss does. TcpExt
# TCPRcvQDrop (no receive memory: tcp_data_queue), TCPBacklogDrop (socket backlog full while
# the reader held the socket), TCPZeroWindowDrop, PFMemallocDrop, TCPMinTTLDrop, RcvPruned
# (tcp_prune_queue could not make room), Ip InDiscards. (A qdisc that refuses an skb at
# enqueue leaves no hole: tcp_transmit_skb sees NET_XMIT_DROP and keeps it unsent; drops at
# dequeue or of older queued skbs do: lab_qdisc_drops in guest-tests/lab/common.sh.)
guest_stack_drops() {
  awk 'BEGIN { w["TcpExt:TCPRcvQDrop"]; w["TcpExt:TCPBacklogDrop"]; w["TcpExt:TCPZeroWindowDrop"]
               w["TcpExt:PFMemallocDrop"]; w["TcpExt:TCPMinTTLDrop"]; w["TcpExt:RcvPruned"]
               w["Ip:InDiscards"] }
       $1 != p { p = $1; for (i = 2; i <= NF; i++) n[i] = $i; next }
       { for (i = 2; i <= NF; i++) if (($1 n[i]) in w) s += $i; p = "" }
       END { print s + 0 }'
}

# the non-zero counters guest_stack_drops sums, as name=value (same input)
guest_drop_detail() {
  awk '$1 != p { p = $1; for (i = 2; i <= NF; i++) n[i] = $i; next }
       { for (i = 2; i <= NF; i++) if ($i != 0 && n[i] ~ /^(TCPRcvQDrop|TCPBacklogDrop|TCPZeroWindowDrop|PFMemallocDrop|TCPMinTTLDrop|RcvPruned|InDiscards)$/) printf "%s%s=%s", (o++ ? " " : ""), n[i], $i; p = "" }'
}

# receive-path drops below the stack (/proc/net/softnet_stat, second column, hex, per CPU:
# the backlog queue was full); one table for every namespace
guest_softnet_drops() {
  s=0
  for h in $(awk '{ print $2 }' /proc/net/softnet_stat 2>/dev/null); do s=$((s + 0x$h)); done
  echo "$s"
}
