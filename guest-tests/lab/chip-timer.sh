# SPDX-License-Identifier: GPL-2.0-or-later
# Lab case "chip-timer" (guest side): the chip's general-purpose timer seen
# from inside the guest, in guest (virtual) time. After the usual setup both NICs are unbound
# from their drivers and the guest program chip-timer (guest-tests/lab/chip-timer.c) drives
# each one through BAR2 (sysfs resource2): TCTR (0x48) must count at the timer clock, run
# freely and restart from 0 on a write; TimerInt (0x58) must latch PCSTimeout (IntrStatus bit
# 14, IntrMask 0) once per TimerInt / clock, and nothing once it is 0.
# The DUT runs at the model's default timer-clock (125 MHz), the partner at timer-clock=100
# (lab-partner-props below), so the property is checked to reach the model too.
#   --arg period_us=1000  TimerInt period      --arg periods=20  periods counted
#   --arg dut_mhz=125 --arg partner_mhz=100     expected clocks (match --dut-props/--partner-props)
# RESULT lines: one per NIC, "nic=dut|partner driver_was=... tool=chip-timer status=ok ...".
# lab-programs: chip-timer
# lab-partner-props: timer-clock=100
period_us="${LAB_period_us:-1000}"; periods="${LAB_periods:-20}"
bad=""
for nic in dut partner; do
  if [ "$nic" = dut ]; then bdf=$A; mhz="${LAB_dut_mhz:-125}"; else bdf=$B; mhz="${LAB_partner_mhz:-100}"; fi
  drv="$(basename "$(readlink /sys/bus/pci/devices/$bdf/driver)")"
  echo "$bdf" >"/sys/bus/pci/devices/$bdf/driver/unbind" || lab_fail "cannot unbind $bdf from $drv"
  # memory decoding on (a driver's remove may leave the function disabled)
  echo 1 >"/sys/bus/pci/devices/$bdf/enable" 2>/dev/null
  out="$(chip-timer "$bdf" --mhz "$mhz" --period-us "$period_us" --periods "$periods")"; rc=$?
  line="$(echo "$out" | grep '^RESULT ' | tail -1)"
  lab_result "nic=$nic driver_was=$drv rc=$rc ${line#RESULT }"
  case "$line" in
    *" status=ok "*) ;;
    *) bad="$bad $nic: ${line##* reason=};"; [ -n "$line" ] || bad="$bad $nic: chip-timer printed no result (rc $rc);";;
  esac
done
[ -z "$bad" ] || lab_fail "chip timer:$bad"
lab_done
