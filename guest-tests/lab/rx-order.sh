# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "rx-order": a NIC must never reorder frames. The partner NIC
# gets a small RX FIFO (rx-fifo-size=2048: room for one full-size frame) and slow PCIe reads
# (pcie-read-latency=20000 ns; one descriptor fetch per received frame), so its receive path
# is about twice as slow as the DUT's transmit path: the partner's model back-pressures QEMU's
# net layer all the time and frames wait in QEMU's queues (the DUT's hub port and the
# partner's own incoming queue). The QEMU shim must hand them to the model oldest first.
#   UDP DUT -> partner: LAB_count (2000) datagrams of LAB_size (1400) bytes, each carrying a
#   sequence number, LAB_batch (32) per sendmsg() with UDP_SEGMENT so that the guest's CPU is
#   not the bottleneck (lab-tool udp-send / udp-recv). The receiver counts datagrams that
#   arrive after a higher number (ooo=): there must be none, and none may be lost.
#   --arg dirs=dut-to-partner,partner-to-dut adds the reverse stream (the DUT's receive path;
#   its sender, the slowed partner, is slower than the DUT's receive path, so little
#   back-pressure there).
# Measured (6.1): the shim of before the fix reordered 1025 of 2000 datagrams (max_back=1992);
# fixed: 0. lab_done also checks TcpExt TCPOFOQueue in both namespaces (common.sh), as in every
# lab case.
# lab-programs: lab-tool
# lab-partner-props: rx-fifo-size=2048,pcie-read-latency=20000
count="${LAB_count:-2000}"; size="${LAB_size:-1400}"; batch="${LAB_batch:-32}"
dirs="${LAB_dirs:-dut-to-partner}"

bad=""
# udp_order NAME: one UDP stream, sender/receiver chosen by NAME (dut-to-partner|partner-to-dut)
udp_order() {
  rm -f /tmp/ready /tmp/udp-recv.out /tmp/udp-send.out
  export LAB_READY=/tmp/ready
  if [ "$1" = dut-to-partner ]; then
    ns lab-tool udp-recv 6000 "$count" 20000 >/tmp/udp-recv.out &
  else
    lab-tool udp-recv 6000 "$count" 20000 >/tmp/udp-recv.out &
  fi
  R=$!
  unset LAB_READY
  lab_wait_file /tmp/ready 50 || lab_fail "udp receiver ($1) not ready"
  if [ "$1" = dut-to-partner ]; then
    lab-tool udp-send 10.9.0.2 6000 "$count" "$size" "$batch" >/tmp/udp-send.out
  else
    ns lab-tool udp-send 10.9.0.1 6000 "$count" "$size" "$batch" >/tmp/udp-send.out
  fi
  wait $R
  recv="$(cat /tmp/udp-recv.out)"; send="$(cat /tmp/udp-send.out)"
  lab_result "kind=udp dir=$1 ${recv#RESULT } send_retries=$(echo "$send" | grep -oE 'retries=[0-9]+' | cut -d= -f2) send_ns=$(echo "$send" | grep -oE ' ns=[0-9]+' | cut -d= -f2)"
  case "$recv" in *" ooo=0 "*) ;; *) bad="$bad udp $1 reordered ($(echo "$recv" | grep -oE 'ooo=[0-9]+ dup=[0-9]+' ) first_ooo=$(echo "$recv" | grep -oE 'first_ooo=[^ ]+' | cut -d= -f2));";; esac
  case "$recv" in *"status=ok"*) ;; *) bad="$bad udp $1 incomplete ($(echo "$recv" | grep -oE 'lost=[0-9]+ first_lost=[-0-9]+'));";; esac
}

for d in $(echo "$dirs" | tr ',' ' '); do
  case "$d" in dut-to-partner|partner-to-dut) udp_order "$d";; *) lab_fail "dirs: unknown direction '$d'";; esac
done
[ -z "$bad" ] || lab_fail "frames reordered or lost:$bad"
lab_done
