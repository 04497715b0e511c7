# SPDX-License-Identifier: GPL-2.0-or-later
# suspend: the driver's system sleep paths, with traffic verified both ways after each.
#  - S3 ("mem"): r8169's rtl8169_suspend (the chip stopped, rtl8169_net_suspend), then QEMU
#    resets the machine at wake (SeaBIOS resumes the kernel at its ACPI waking vector), so the NIC
#    comes back at its reset values, as a board that cuts the NIC's power in S3 (D3cold) gives it:
#    the PCI core restores the config space and r8169's rtl8169_resume brings the chip up from
#    scratch (the MAC address from its copy, rtl_rar_set; the PHY and the MAC programmed again).
#    Woken by the RTC alarm (/sys/class/rtc/rtc0/wakealarm: QEMU's mc146818 requests the wakeup
#    when the alarm fires in the suspended state). boot=bzimage: docs/GUEST.md says why.
#  - s2idle ("freeze"): the devices are suspended (the function in D3hot, its state kept) while
#    the CPU idles. QEMU's RTC alarm raises no ACPI event outside S3 and its power button woke
#    no 6.1 guest from s2idle, so the guest arms the i8042 keyboard as a wakeup source and the
#    host presses a key (HMP sendkey shift) every 2 s from the STEP on until the guest says it is
#    awake; a press that lands before the guest sleeps aborts the entry, which the guest retries.
# The link must come back at 1000/full, r8169 must log no error, the peer verifies the transfers.
# host: sink=3 source=3 bytes=8M timeout=300 boot=bzimage action=suspend
. /scenarios/common.sh

probe_checks
link_checks
net_checks
check "guest->host transfer before the first sleep failed" tx_stream "$BYTES" "$R_sink"
check "host->guest transfer before the first sleep failed" rx_stream "$BYTES" "$R_source"

WAKE_SECONDS=3
enter_sleep() {  # mem|freeze: returns once the guest is awake again
  case "$1" in
    mem)
      echo 0 >/sys/class/rtc/rtc0/wakealarm
      echo "+$WAKE_SECONDS" >/sys/class/rtc/rtc0/wakealarm || fail "setting the RTC wake alarm failed"
      echo mem >/sys/power/state || fail "echo mem > /sys/power/state failed: $(dmesg | grep -iE 'PM:|fail' | tail -2 | tr '\n' ' ')"
      ;;
    freeze)
      for w in /sys/bus/serio/devices/serio0/power/wakeup /sys/devices/platform/i8042/serio0/power/wakeup; do
        [ -w "$w" ] && echo enabled >"$w"
      done
      n=0
      while :; do
        n=$((n + 1))
        step sleeping-s2idle attempt=$n
        echo freeze >/sys/power/state 2>/dev/null && break
        [ "$n" -lt 5 ] || fail "echo freeze > /sys/power/state failed 5 times: $(dmesg | grep -iE 'PM:|abort|fail' | tail -2 | tr '\n' ' ')"
        sleep 1
      done
      step woken-s2idle attempts=$n
      ;;
  esac
}

sleep_cycle() {  # mem|freeze
  state="$1"
  grep -qw "$state" /sys/power/state || fail "the guest kernel offers no '$state' sleep (/sys/power/state: $(cat /sys/power/state))"
  [ "$state" != mem ] || [ -w /sys/class/rtc/rtc0/wakealarm ] || fail "no RTC wake alarm (/sys/class/rtc/rtc0/wakealarm)"
  guest_dmesg_clear
  tx0="$(netstat_of tx_packets)"; rx0="$(netstat_of rx_packets)"
  t0="$(cut -d' ' -f1 /proc/uptime)"
  enter_sleep "$state"
  t1="$(cut -d' ' -f1 /proc/uptime)"
  wait_link 20 || fail "no carrier on eth0 within 20 s of the wake from $state"
  t2="$(cut -d' ' -f1 /proc/uptime)"
  entered="$(dmesg | grep -cE 'PM: suspend entry')"
  exited="$(dmesg | grep -cE 'PM: suspend exit')"
  errs="$(dmesg | grep -iE 'r8169|eth0' | grep -icE 'fail|error|timeout|timed out|unable')"
  result "sleep=$state entered=$entered exited=$exited slept_s=$t0..$t1 link_back_s=$t2 speed=$(cat /sys/class/net/eth0/speed) driver_errors=$errs"
  dmesg | grep -iE 'PM: suspend|ACPI: PM: (Preparing|Waking)|r8169|eth0' | sed 's/^/  /' | head -20
  [ "$entered" -ge 1 ] && [ "$exited" -ge 1 ] || fail "the kernel did not log suspend entry and exit for $state"
  [ "$errs" -eq 0 ] || fail "r8169 logged errors across $state: $(dmesg | grep -iE 'r8169|eth0' | grep -iE 'fail|error|timeout|timed out|unable' | head -1)"
  link_checks
  check "guest->host transfer after $state failed" tx_stream "$BYTES" "$R_sink"
  check "host->guest transfer after $state failed" rx_stream "$BYTES" "$R_source"
  result "sleep=$state tx_packets=$(($(netstat_of tx_packets) - tx0)) rx_packets=$(($(netstat_of rx_packets) - rx0))"
}

sleep_cycle mem
sleep_cycle freeze
order_checks
pass "S3 (RTC alarm) and s2idle (keyboard): link back, transfers both ways verified after each"
