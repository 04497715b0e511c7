# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "msi" (episode msi-lost-irq, docs/HISTORY.md section 2): TX-heavy parallel TCP streams
# sent by the DUT (LAB_streams senders, 64 KiB writes, LAB_max_ms of virtual time each) to
# sinks in the partner's namespace, while a monitor samples every LAB_sample_ms:
#   - the DUT's interrupt count (/proc/interrupts, the line named after its interface),
#   - IntrStatus and IntrMask from `ethtool -d` (both drivers dump registers): 0x3e and 0x3c
#     on the 8168, where the chip keeps them elsewhere the episode passes --arg isr_reg=/imr_reg=
#     (the RTL8125's 32-bit pair at 0x3c/0x38: the low 16 bits hold every event r8169 uses).
# Interrupt hang = the count has not moved for LAB_hang_ms while (IntrStatus & IntrMask) != 0:
# the chip's INT is high but no interrupt arrives (an MSI is sent only on a 0->1 edge). The
# case then records the figures, recovers with `ip link set down/up` (chip reset), checks a
# ping and ends the traffic; the run never waits for the 6 s TX watchdog.
#   --arg streams=4 --arg max_ms=2000 --arg sample_ms=50 --arg hang_ms=500
# lab-programs: lab-tool
streams="${LAB_streams:-4}"; max_ms="${LAB_max_ms:-2000}"
sample_ms="${LAB_sample_ms:-50}"; hang_ms="${LAB_hang_ms:-500}"

sim=0; [ "$LAB_driver" = rtl8168sim ] && sim=1
irq0=$(lab_irqs)
if [ $sim = 1 ]; then loops0=$(lab_stat drv_irq_loops); fi
rm -f /tmp/ready.*
i=0
while [ $i -lt "$streams" ]; do
  i=$((i+1))
  ns env LAB_READY=/tmp/ready.$i lab-tool recv $((6000+i)) "$max_ms" >/tmp/recv.$i &
done
i=0
while [ $i -lt "$streams" ]; do
  i=$((i+1)); lab_wait_file /tmp/ready.$i 50 || lab_fail "sink $i not ready"
done
t0=$(lab_now_ns)
SENDERS=""
i=0
while [ $i -lt "$streams" ]; do
  i=$((i+1))
  lab-tool send 10.9.0.2 $((6000+i)) "$max_ms" >/tmp/send.$i &
  SENDERS="$SENDERS $!"
done

# monitor
hang=0; stuck=0; last=""; samples=0; hang_ms_at=""; hang_irqs=""; hang_isr=""; hang_imr=""
while :; do
  usleep $((sample_ms * 1000))
  samples=$((samples+1))
  now=$(lab_now_ns); el=$(( (now - t0) / 1000000 ))
  irq=$(lab_irqs); isr=$(lab_reg16 "${LAB_isr_reg:-3e}"); imr=$(lab_reg16 "${LAB_imr_reg:-3c}")
  if [ "$irq" = "$last" ] && [ "$isr" -gt 0 ] && [ $((isr & imr)) -ne 0 ]; then
    stuck=$((stuck + sample_ms))
  else
    stuck=0
  fi
  last=$irq
  if [ $stuck -ge "$hang_ms" ]; then
    hang=1; hang_ms_at=$((el - stuck)); hang_irqs=$((irq - irq0))
    hang_isr=$(printf '0x%04x' "$isr"); hang_imr=$(printf '0x%04x' "$imr")
    lab_log "interrupt hang: no interrupt for $stuck ms with IntrStatus $hang_isr IntrMask $hang_imr"
    [ $sim = 1 ] && ethtool -S "$IFA" | grep -E 'drv_(irq|napi|tx_pending)' | tr -s ' \n' ' ' && echo
    break
  fi
  # stop after the traffic, unless a hang is being timed (bounded by max_ms + hang_ms + 300)
  [ $el -ge $((max_ms + 300)) ] && [ $stuck -eq 0 ] && break
  [ $el -ge $((max_ms + hang_ms + 300)) ] && break
done
t1=$(lab_now_ns)
irq1=$(lab_irqs)
recovered=-
if [ $hang = 1 ]; then
  # recovery: ifdown/ifup resets the chip (IntrStatus cleared, IntrMask rewritten)
  ip link set "$IFA" down
  ip link set "$IFA" up
  lab_wait_link 100 && lab_ping && recovered=ok || recovered=failed
fi
# end the traffic: senders stop at max_ms; after a hang they may still be blocked
for p in $SENDERS; do kill $p 2>/dev/null; done
usleep 200000
n=0; while [ $n -lt 30 ]; do
  [ "$(ls /tmp/recv.* | wc -l)" -ge "$streams" ] && [ -z "$(grep -L RESULT /tmp/recv.* 2>/dev/null)" ] && break
  usleep 100000; n=$((n+1))
done
sent=0; recvd=0
for f in /tmp/send.*; do b=$(grep -oE 'bytes=[0-9]+' "$f" | cut -d= -f2); sent=$((sent + ${b:-0})); done
for f in /tmp/recv.*; do b=$(grep -oE 'bytes=[0-9]+' "$f" | cut -d= -f2); recvd=$((recvd + ${b:-0})); done
ms=$(( (t1 - t0) / 1000000 ))
line="hang=$hang streams=$streams elapsed_ms=$ms irqs=$((irq1 - irq0)) samples=$samples"
line="$line recv_bytes=$recvd recv_mbps=$(( ms > 0 ? recvd * 8 / 1000 / ms : 0 ))"
[ $hang = 1 ] && line="$line hang_at_ms=$hang_ms_at irqs_before_hang=$hang_irqs isr=$hang_isr imr=$hang_imr recovered=$recovered"
if [ $sim = 1 ]; then
  line="$line irq_loops=$(( $(lab_stat drv_irq_loops) - loops0 )) tx_timeouts=$(lab_stat drv_tx_timeouts)"
fi
lab_result "$line"
[ "$recovered" = failed ] && lab_fail "no recovery after the interrupt hang"
lab_done
