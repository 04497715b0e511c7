# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "rx-flood": small frames from the partner faster than the DUT's stack takes them, so
# that r8169's NAPI poll uses its whole budget (64) poll after poll and the RX ring runs out of
# descriptors. The partner's kernel packet generator (pktgen, in the partner's namespace, the
# tool netdev's own tests use for line-rate floods) sends LAB_count (30000) 60-byte UDP frames to
# the DUT's address and MAC, back to back. Both ends share the guest's one CPU, and a NAPI poll
# run from the interrupt's softirq would take each frame as it lands; so the DUT's NAPI runs
# threaded (/sys/class/net/IF/threaded, Linux 5.12+) at nice 10, as on a host whose CPU is busy
# with other work: pktgen fills the ring between polls, and each poll finds more than its
# budget waiting. Seen at the DUT:
#   - the napi:napi_poll tracepoint of the DUT's interface (tracefs): polls, polls that used the
#     whole budget (work == budget), the longest run of them, and any poll that returned more
#     than its budget (a NAPI contract violation; the kernel also says "exceeding its budget");
#   - every frame is accounted for: the driver's rx_packets plus its rx_missed_errors (r8169
#     reads them from the chip's tally, RxMissed) plus its rx_dropped equal what pktgen sent, and
#     the driver's missed count equals the tally's (ethtool -S rx_missed); the host side
#     compares them with the model's own rx_frames and rx_dropped_no_desc (repro/rx_flood.py);
#   - afterwards the DUT still passes traffic: 4 MiB verified each way.
#   --arg count=30000
# lab-modules: pktgen
# lab-programs: verify-tool
count="${LAB_count:-30000}"
DUT_MAC=52:54:00:00:00:01
st() { cat "/sys/class/net/$IFA/statistics/$1"; }
T=/sys/kernel/tracing
[ -d "$T/events" ] || mount -t tracefs tracefs "$T" 2>/dev/null || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
[ -d "$T/events" ] || T=/sys/kernel/debug/tracing
[ -d "$T/events/napi/napi_poll" ] || lab_fail "no napi:napi_poll tracepoint (tracefs at $T): the kernel lacks CONFIG_TRACEPOINTS/tracefs"
lab_load_modules pktgen
ns test -d /proc/net/pktgen || lab_fail "no /proc/net/pktgen: the pktgen module did not load (CONFIG_NET_PKTGEN)"
pg() {  # pg FILE CMD: one pktgen command in the partner's namespace, checked
  ns sh -c "echo '$2' > /proc/net/pktgen/$1" || lab_fail "pktgen: '$2' > $1 refused"
}
pg kpktgend_0 "rem_device_all"
pg kpktgend_0 "add_device $IFB"
for c in "count $count" "pkt_size 60" "delay 0" "clone_skb 0" "dst 10.9.0.1" "dst_mac $DUT_MAC" \
         "udp_src_min 9" "udp_src_max 9" "udp_dst_min 9" "udp_dst_max 9"; do
  pg "$IFB" "$c"
done
echo 1 >"/sys/class/net/$IFA/threaded" || lab_fail "threaded NAPI refused (/sys/class/net/$IFA/threaded)"
napi=""
for d in /proc/[0-9]*; do
  case "$(cat "$d/comm" 2>/dev/null)" in "napi/$IFA-"*) napi="$napi ${d#/proc/}";; esac
done
[ -n "$napi" ] || lab_fail "no NAPI thread napi/$IFA-* after threaded=1"
for p in $napi; do renice 10 -p "$p" >/dev/null || lab_fail "renice 10 the NAPI thread $p"; done
# the frames go to UDP port 9 with no socket: the stack answers ICMP port unreachable (rate
# limited) and counts them; what matters is that they reached it
echo 0 >"$T/tracing_on"; echo >"$T/trace"
echo "dev_name == \"$IFA\"" >"$T/events/napi/napi_poll/filter" || lab_fail "napi_poll filter refused"
echo 1 >"$T/events/napi/napi_poll/enable"
dmesg -c >/dev/null 2>&1
rx0=$(st rx_packets); miss0=$(st rx_missed_errors); drop0=$(st rx_dropped); tally0=$(lab_stat rx_missed)
echo 1 >"$T/tracing_on"
ns sh -c 'echo start > /proc/net/pktgen/pgctrl' || lab_fail "pktgen start failed"
# the last frames drain: counters that agree over two readings 100 ms apart
a=""; for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
  b="$(st rx_packets) $(st rx_missed_errors)"; [ "$a" = "$b" ] && break; a="$b"; usleep 100000
done
echo 0 >"$T/tracing_on"; echo 0 >"$T/events/napi/napi_poll/enable"
res=$(ns cat "/proc/net/pktgen/$IFB" | grep -A2 "^Result:" | tr '\n' ' ')
sent=$(echo "$res" | sed -n 's/.*pkts-sofar: *\([0-9]*\).*/\1/p')
[ -n "$sent" ] || sent=$(ns cat "/proc/net/pktgen/$IFB" | sed -n 's/.*pkts-sofar: *\([0-9]*\).*/\1/p' | head -n1)
lab_log "pktgen: $res"
rx=$(( $(st rx_packets) - rx0 )); miss=$(( $(st rx_missed_errors) - miss0 )); drop=$(( $(st rx_dropped) - drop0 ))
tally=$(( ($(lab_stat rx_missed) - tally0 + 65536) % 65536 ))  # the tally's RxMissed is 16 bits
# the napi_poll lines: "... napi poll on napi struct 0x.. for device eth0 work 64 budget 64"
polls=$(awk '/napi_poll:/ { for (i = 1; i < NF; i++) { if ($i == "work") w = $(i + 1); if ($i == "budget") b = $(i + 1) }
  n++; if (w + 0 >= b + 0) { f++; run++; if (run > mx) mx = run } else run = 0; if (w + 0 > b + 0) o++ }
  END { printf "polls=%d full=%d longest_full_run=%d over_budget=%d", n, f, mx, o }' "$T/trace")
lost_trace=$(grep -c "^CPU:.*LOST" "$T/trace")
lab_result "what=flood sent=${sent:-0} driver_rx=$rx driver_missed=$miss driver_dropped=$drop tally_missed=$tally $polls trace_lost=$lost_trace"
pv() { echo "$polls" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
bad=""
[ "${sent:-0}" -eq "$count" ] || bad="$bad; pktgen sent ${sent:-0} of $count frames"
[ $((rx + miss + drop)) -eq "${sent:-0}" ] ||
  bad="$bad; of ${sent:-0} frames sent the driver accounts for $((rx + miss + drop)) ($rx received, $miss missed, $drop dropped): $(( ${sent:-0} - rx - miss - drop )) uncounted"
[ "$miss" -eq "$tally" ] || bad="$bad; the driver reports $miss missed frames, the chip's tally $tally"
[ "$(pv over_budget)" -eq 0 ] || bad="$bad; $(pv over_budget) NAPI polls returned more than their budget (the driver processed past it)"
[ "$(dmesg | grep -c 'exceeding its budget')" -eq 0 ] || bad="$bad; the kernel: $(dmesg | grep -m1 'exceeding its budget')"
[ "$(pv full)" -ge 2 ] || bad="$bad; the NAPI budget was used up in only $(pv full) polls: the flood did not outrun the stack (the case tests nothing)"
[ -z "$bad" ] || lab_fail "${bad#; }"
# traffic after the flood, checked byte by byte each way, with NAPI back in the softirq
echo 0 >"/sys/class/net/$IFA/threaded"
rm -f /tmp/ra /tmp/rb
ns env LAB_READY=/tmp/ra verify-tool tcp-recv 7401 4194304 60000 >/tmp/after-in &
ra=$!
lab_wait_file /tmp/ra 100 || lab_fail "partner receiver not ready"
verify-tool tcp-send 10.9.0.2 7401 4194304 60000 >/dev/null
LAB_READY=/tmp/rb verify-tool tcp-recv 7402 4194304 60000 >/tmp/after-out &
rb=$!
lab_wait_file /tmp/rb 100 || lab_fail "DUT receiver not ready"
ns verify-tool tcp-send 10.9.0.1 7402 4194304 60000 >/dev/null
wait $ra $rb  # by pid: a plain `wait` would also wait for the lab's deadline timer
for f in /tmp/after-in /tmp/after-out; do
  grep -q "complete=1" "$f" || lab_fail "after the flood: $(cat "$f")"
done
lab_result "what=end tally_total=$(lab_stat rx_missed)"  # the host compares it with the model's count
lab_done "$count frames flooded: $rx received, $miss missed (tally $tally), NAPI budget used up in $(pv full) of $(pv polls) polls (longest run $(pv longest_full_run)); 4 MiB verified each way after"
