# SPDX-License-Identifier: GPL-2.0-or-later
# hostile: traffic works; then `rmmod r8169` and the guest program `hostile`
# (guest-tests/programs/hostile.c) maps BAR2 of the NIC through sysfs and writes garbage
# registers and descriptors (bad addresses, zero/huge lengths, rings without EOR) with a
# fixed seed. QEMU must keep running (this guest keeps printing); after `modprobe r8169`
# the link, DHCP and traffic in both directions work again, and QEMU's trace shows the
# device reporting failed DMA (run-guest counts rtl8168_dma_error). rtl8168 only: with another
# --nic only the driver reload is exercised. With --iommu the attack's DMA to addresses nobody
# mapped for the device faults in the IOMMU: run-guest names those faults but does not judge them
# (iommu=faults-allowed; the hostile program, not a driver, programs the device then).
# host: sink=2 source=1 bytes=8M timeout=300 trace=rtl8168_dma_error iommu=faults-allowed
. /scenarios/common.sh

probe_checks
link_checks
net_checks
check "transfer before the attack failed" tx_stream "$BYTES" "$R_sink"

bdf="$(basename "$(readlink /sys/class/net/eth0/device)")"
result "target=$bdf"
ip link set eth0 down
rmmod "$DRIVER" || fail "rmmod $DRIVER failed"
if [ "$NIC" = rtl8168 ]; then
  command -v hostile >/dev/null 2>&1 || fail "no hostile program in the image (guest-tests/programs/hostile.c)"
  step attack
  hostile --seed "${R_seed:-0x8168}" "$bdf" >/tmp/hostile.out 2>/tmp/hostile.err; hrc=$?
  sed 's/^/  hostile: /' /tmp/hostile.err | tail -20
  line="$(grep '^RESULT ' /tmp/hostile.out | tail -1)"
  result "hostile_rc=$hrc ${line#RESULT }"
  [ "$hrc" -eq 0 ] || fail "the hostile program failed (rc $hrc)"
  echo "  dmesg after the attack:"; dmesg | tail -10 | sed 's/^/    /'
else
  result "attack=skipped (rtl8168 only)"
fi

step reload
modprobe "$DRIVER" || fail "modprobe $DRIVER failed"
net_up || fail "eth0 did not come back after the driver reload"
probe_checks
link_checks
net_checks
check "guest->host transfer after the reload failed" tx_stream "$BYTES" "$R_sink"
check "host->guest transfer after the reload failed" rx_stream "$BYTES" "$R_source"
pass "survived the attack; traffic works after the driver reload"
