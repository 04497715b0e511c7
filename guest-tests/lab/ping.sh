# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "ping": setup only (binding, namespace, link, one ping) and a 3-ping figure; a quick
# check of the lab itself.
# lab-programs: lab-tool
ping -c 3 10.9.0.2 >/tmp/p 2>&1
lab_result "ping=$(grep -oE '[0-9]+ packets received' /tmp/p | cut -d' ' -f1)/3 uptime=$(lab_uptime) irqs=$(lab_irqs) imr=$(lab_reg16 3c) isr=$(lab_reg16 3e)"
lab_done
