# SPDX-License-Identifier: GPL-2.0-or-later
# boot: the quick check without the host peer: probe (chip, MSI for rtl8168), link,
# DHCP over -netdev user and ping to the host. smoke does this and the transfers.
# host: sink=0 source=0 timeout=60
. /scenarios/common.sh

probe_checks
link_checks
net_checks
result "uptime=$(cut -d' ' -f1 /proc/uptime)"
pass "probe, link, dhcp and ping ok"
