# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "aspm-l1" (episode aspm-l1, docs/HISTORY.md "ASPM L1 TX timeouts"): the DUT is an
# RTL8168h behind a root port that advertises ASPM L1 (x-aspm-l1=on, qemu-patches/0006). After
# setup the guest sets the PCIe ASPM policy to powersave, which enables L1 on every link whose
# two ends support it and whose driver did not disable it (r8169's probe disables L1 on this
# chip since 90ca51e8c654; the old driver of the episode disables only L1.2). With L1 enabled
# in Link Control and Config5 ASPM_en set by r8169's rtl_hw_start_8168h_1, the model's link
# enters L1 after 16 us without traffic (docs/TIMING.md "ASPM L1"), and a TxPoll doorbell that
# finds it there is lost (aspm-l1-txpoll-lost). The DUT then sends a paced UDP stream (64-byte
# datagrams, one per LAB_interval_us) to the silent partner; a lost doorbell leaves the
# frame in the ring, BQL stops the queue, and the kernel's TX watchdog (6 s) calls r8169's
# ndo_tx_timeout, whose task disables ASPM (80c0576ef179, "ASPM disabled on Tx timeout") and
# resets the chip. Reported: the ASPM state before and after (l1_aspm of the device's link in
# sysfs, 1 = L1 enabled), the stream at the receiver (received, lost, the last sequence number
# that arrived, the longest gap between two arrivals; the receiver's clock starts at the first
# arrival, so a stall before it shows in stall_ms instead), the TX watchdog's count and how long
# the queue had been stopped when it fired (stall_ms), the driver's warnings, then a ping.
#   --arg count=1200 --arg interval_us=10000
# lab-dut-props: chip=8168h
# lab-dut-port-props: x-aspm-l1=on
# lab-programs: lab-tool fault-tool
count="${LAB_count:-1200}"; iv="${LAB_interval_us:-10000}"
l1="/sys/bus/pci/devices/$A/link/l1_aspm"
l1_of() { cat "$l1" 2>/dev/null || echo -; }
l1_before=$(l1_of)
policy=ok
echo powersave >/sys/module/pcie_aspm/parameters/policy 2>/tmp/policy || policy=refused
[ $policy = ok ] || sed 's/^/  policy: /' /tmp/policy
usleep 100000
l1_on=$(l1_of)
lab_result "what=aspm policy=$policy l1_before=$l1_before l1_on=$l1_on"
wd0=$(cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0)
now_ms=$(( $(lab_now_ns) / 1000000 ))
max_ms=$(( count * iv / 1000 + 2000 ))
# the stream starts at once (lab_paced_stream waits until its 4th argument minus its 5th)
lab_paced_stream 7200 "$count" "$iv" "$now_ms" 0 "$max_ms"
wd=$(( $(cat /sys/class/net/$IFA/queues/tx-0/tx_timeout 2>/dev/null || echo 0) - wd0 ))
refused=$(grep -oE 'refused=[0-9]+' /tmp/pace | cut -d= -f2)
aspm_off=$(dmesg | grep -c 'ASPM disabled on Tx timeout')
# how long the queue had been stopped when the watchdog fired (dev_watchdog's "timed out N ms")
stall_ms=$(dmesg | grep -oE 'timed out [0-9]+ ms' | head -n1 | grep -oE '[0-9]+')
dmesg | grep -E 'timed out|TX timeout|Tx timeout|ASPM|resetting' | tail -4 | sed 's/^/  /'
lab_result "what=stream sent=$count received=$(lab_gap unique) lost=$(lab_gap lost) last_seq=$(lab_gap last_seq) max_gap_us=$(lab_gap max_gap_us) refused=${refused:-0} tx_timeouts=$wd stall_ms=${stall_ms:-0} aspm_disabled_msgs=$aspm_off l1_after=$(l1_of)"
# the trailing ping shows whether the DUT can send at all after the run
ping -c 1 -W 2 10.9.0.2 >/dev/null 2>&1 && lab_result "what=after ping=ok" || lab_result "what=after ping=failed"
lab_done
