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
lab_fault_in_time "$at_ms" "$lead_ms"
pcierr0=$(dmesg | grep -c 'PCI error')
carrier0=$(cat /sys/class/net/$IFA/carrier_changes)
resets0=$(lab_stat drv_resets); syserr0=$(lab_stat drv_syserr)
max_ms=$(( count * iv / 1000 + 3000 ))
lab_paced_stream 7100 "$count" "$iv" "$at_ms" "$lead_ms" "$max_ms"
pcierr=$(( $(dmesg | grep -c 'PCI error') - pcierr0 ))
carrier=$(( $(cat /sys/class/net/$IFA/carrier_changes) - carrier0 ))
resets=$(( $(lab_stat drv_resets) - resets0 )); syserr=$(( $(lab_stat drv_syserr) - syserr0 ))
refused=$(grep -oE 'refused=[0-9]+' /tmp/pace | cut -d= -f2)
[ $sim = 1 ] || { resets=-; syserr=-; }
dmesg | grep -E 'PCI error|resetting|Link is' | tail -6 | sed 's/^/  /'
lab_result "what=syserr sent=$count received=$(lab_gap unique) lost=$(lab_gap lost) max_gap_us=$(lab_gap max_gap_us) gap_at_ms=$(lab_gap gap_at_ms) refused=${refused:-0} pci_errors=$pcierr carrier_changes=$carrier resets=$resets syserr_seen=$syserr"
lab_done
