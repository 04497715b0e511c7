# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "syserr" (episode unsolicited-syserr, docs/HISTORY.md §5): the DUT's model raises
# SYSErr together with RxOK, unsolicited, on a schedule (the spurious-irq fault, given by the
# episode as the DUT property faults=spurious-irq:bits=0x8001,,at=<LAB_fault_at_ms>ms,,...),
# while the DUT sends a paced UDP stream (64-byte datagrams, one per LAB_interval_us) to the
# partner from 1 s before the first firing. A driver that takes SYSErr for a PCI error resets
# the chip: the case measures what that costs (datagrams lost, the longest silence at the
# receiver, carrier changes of the DUT) and counts the resets ("PCI error" lines in the kernel
# log; rtl8168sim: drv_resets, and drv_syserr = interrupts that read SYSErr).
#   --arg fault_at_ms=20000 --arg count=3000 --arg interval_us=1000
# lab-programs: lab-tool fault-tool
at_ms="${LAB_fault_at_ms:-20000}"; count="${LAB_count:-3000}"; iv="${LAB_interval_us:-1000}"
lead_ms=1000
sim=0; [ "$LAB_driver" = rtl8168sim ] && sim=1
now_ms=$(( $(lab_now_ns) / 1000000 ))
[ "$now_ms" -lt $((at_ms - lead_ms - 200)) ] ||
  lab_fail "setup ended at $now_ms ms (virtual), too late for the fault at $at_ms ms: raise --arg fault_at_ms and the property together"
pcierr0=$(dmesg | grep -c 'PCI error')
carrier0=$(cat /sys/class/net/$IFA/carrier_changes)
resets0=$(lab_stat drv_resets); syserr0=$(lab_stat drv_syserr)
max_ms=$(( count * iv / 1000 + 3000 ))
ns env LAB_READY=/tmp/ready fault-tool udp-gap 7100 "$count" "$max_ms" >/tmp/gap &
lab_wait_file /tmp/ready 50 || lab_fail "receiver not ready"
now_ms=$(( $(lab_now_ns) / 1000000 ))
[ "$now_ms" -lt $((at_ms - lead_ms)) ] && usleep $(( (at_ms - lead_ms - now_ms) * 1000 ))
lab_log "stream starts at $(( $(lab_now_ns) / 1000000 )) ms, fault at $at_ms ms"
fault-tool udp-pace 10.9.0.2 7100 "$count" "$iv" >/tmp/pace
n=0; while ! grep -q RESULT /tmp/gap 2>/dev/null; do
  n=$((n+1)); [ "$n" -gt $(( max_ms / 100 + 50 )) ] && lab_fail "receiver did not finish"; usleep 100000
done
cat /tmp/pace /tmp/gap
pcierr=$(( $(dmesg | grep -c 'PCI error') - pcierr0 ))
carrier=$(( $(cat /sys/class/net/$IFA/carrier_changes) - carrier0 ))
resets=$(( $(lab_stat drv_resets) - resets0 )); syserr=$(( $(lab_stat drv_syserr) - syserr0 ))
g() { grep -oE "$1=[-0-9]+" /tmp/gap | head -n1 | cut -d= -f2; }
refused=$(grep -oE 'refused=[0-9]+' /tmp/pace | cut -d= -f2)
[ $sim = 1 ] || { resets=-; syserr=-; }
dmesg | grep -E 'PCI error|resetting|Link is' | tail -6 | sed 's/^/  /'
lab_result "what=syserr sent=$count received=$(g unique) lost=$(g lost) max_gap_us=$(g max_gap_us) gap_at_ms=$(g gap_at_ms) refused=${refused:-0} pci_errors=$pcierr carrier_changes=$carrier resets=$resets syserr_seen=$syserr"
lab_done
