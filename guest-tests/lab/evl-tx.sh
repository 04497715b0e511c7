# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "evl-tx" (episodes evl-short-csum and evl-tso, docs/REPRODUCE.md): the RTL8168evl's
# TX defects. The DUT is the 8168evl profile (its quirks evl-short-csum and evl-tso-defects on,
# as on silicon); the partner (8168c, r8169, its own namespace) verifies every checksum in
# software and counts what fails: Udp/Tcp InCsumErrors and Ip InHdrErrors of its namespace.
#   --arg what=short   COUNT UDP datagrams of 8 payload bytes (50-byte frames: the chip pads
#                      them) from the DUT to the partner; TX checksum offload on
#   --arg what=tso     a TCP stream from the DUT for MS ms of guest time with sg/tso on (Linux
#                      TCP carries the 12-byte timestamp option: rtl8168evl_fix_tso's case)
#   --arg count=200 --arg ms=1000
# Segments the partner drops for a bad checksum are holes no NIC counter sees, so the
# reordering check only reports here (ofo_check=0).
# RESULT: the partner's error counters (deltas) and what arrived.
# lab-dut-props: chip=8168evl
# lab-programs: lab-tool
what="${LAB_what:-short}"; count="${LAB_count:-200}"; ms="${LAB_ms:-1000}"
LAB_ofo_check="${LAB_ofo_check:-0}"

# partner namespace: Udp InCsumErrors, Tcp InCsumErrors, Ip InHdrErrors (from /proc/net/snmp)
errs() {
  ns cat /proc/net/snmp | awk '
    /^Ip: [A-Z]/ { for (i = 2; i <= NF; i++) ip[i] = $i; next }
    /^Ip: [0-9]/ { for (i = 2; i <= NF; i++) if (ip[i] == "InHdrErrors") h = $i }
    /^Tcp: [A-Z]/ { for (i = 2; i <= NF; i++) tc[i] = $i; next }
    /^Tcp: [0-9]/ { for (i = 2; i <= NF; i++) if (tc[i] == "InCsumErrors") t = $i }
    /^Udp: [A-Z]/ { for (i = 2; i <= NF; i++) ud[i] = $i; next }
    /^Udp: [0-9]/ { for (i = 2; i <= NF; i++) if (ud[i] == "InCsumErrors") u = $i }
    END { printf "%d %d %d", u, t, h }'
}

ethtool -K "$IFA" tx on >/dev/null 2>&1
set -- $(errs); u0=$1; t0=$2; h0=$3
case "$what" in
  short)
    rm -f /tmp/ready
    export LAB_READY=/tmp/ready
    ns lab-tool udp-recv 6000 "$count" 3000 >/tmp/udp-recv.out &
    R=$!
    unset LAB_READY
    lab_wait_file /tmp/ready 50 || lab_fail "udp receiver not ready"
    lab-tool udp-send 10.9.0.2 6000 "$count" 8 1 >/tmp/udp-send.out
    wait $R
    got="$(grep -oE 'received=[0-9]+|got=[0-9]+' /tmp/udp-recv.out | head -1 | cut -d= -f2)"
    set -- $(errs)
    lab_result "what=short sent=$count udp_csum_errors=$(($1 - u0)) tcp_csum_errors=$(($2 - t0)) ip_hdr_errors=$(($3 - h0)) $(sed 's/^RESULT //' /tmp/udp-recv.out | tr -d '\n')"
    ;;
  tso)
    ethtool -K "$IFA" sg on tso on >/dev/null 2>&1 || lab_fail "ethtool -K sg on tso on failed"
    rm -f /tmp/ready
    export LAB_READY=/tmp/ready
    ns lab-tool recv 5001 $((ms + 3000)) >/tmp/recv.out 2>&1 &
    R=$!
    unset LAB_READY
    lab_wait_file /tmp/ready 50 || lab_fail "receiver not ready"
    lab-tool send 10.9.0.2 5001 "$ms" >/tmp/send.out 2>&1
    wait $R
    set -- $(errs)
    lab_result "what=tso ms=$ms udp_csum_errors=$(($1 - u0)) tcp_csum_errors=$(($2 - t0)) ip_hdr_errors=$(($3 - h0)) tso_state=$(ethtool -k "$IFA" | awk '$1 == "tcp-segmentation-offload:" {print $2}') $(sed 's/^RESULT //' /tmp/recv.out | tr -d '\n' | cut -c1-200)"
    ;;
  *) lab_fail "what: unknown '$what' (short, tso)";;
esac
lab_done
