# SPDX-License-Identifier: GPL-2.0-or-later
# migrate: while the pattern streams to the peer, the host migrates the VM to a file
# (monitor: migrate "exec:cat > FILE"), quits QEMU and starts a new one with -incoming from
# that file. The transfer must complete, verified by the peer; then a host->guest transfer
# on the migrated device. Uses --net tap (root): a TCP connection through -netdev user
# lives inside the QEMU process and cannot survive a new process; through a tap device its
# host end lives in the host kernel and only sees a pause.
# host: sink=1 source=1 bytes=256M action=migrate net=tap timeout=300
. /scenarios/common.sh

probe_checks
link_checks
net_checks

t0="$(cut -d' ' -f1 /proc/uptime)"
tx_stream "$BYTES" "$R_sink" >/tmp/tx.out 2>&1 &
txpid=$!
step transfer-running
wait $txpid; rc=$?
cat /tmp/tx.out
[ "$rc" -eq 0 ] || fail "the transfer across the migration failed"
result "after_migration uptime=$(cut -d' ' -f1 /proc/uptime) transfer_started=$t0"
check "host->guest transfer after the migration failed" rx_stream "$BYTES" "$R_source"
link_checks
pass "transfer across the migration and RX after it verified"
