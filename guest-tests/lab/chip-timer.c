/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * chip-timer - checks the RTL8168's general-purpose timer from inside the guest,
 * through BAR2 of a NIC that no driver holds (sysfs resource2, mmap):
 *
 *   chip-timer BDF [--mhz F] [--period-us P] [--periods N]
 *
 *   1. TCTR (0x48, 32 bit) counts at the chip's timer clock: two reads SPAN apart in guest
 *      time (CLOCK_MONOTONIC, virtual time under the lab's -icount) must differ by
 *      SPAN * F counts (+-2 %; F = --mhz, default 125, the model's timer-clock default); a
 *      third read is larger still (free-running); writing any value restarts it from 0
 *      (read right after a write: < 50 us worth of counts).
 *   2. TimerInt (0x58) = P us * F, then TCTR = 0 (the count must reach TimerInt; one that is
 *      already past it matches only after the 32-bit wrap): with IntrMask (0x3C) = 0 (no
 *      interrupt; the bit only latches), IntrStatus (0x3E) bit 14 PCSTimeout must latch once per period: polled and
 *      cleared (write 1) for N and a half periods (N default 20), the number of latches must be N+-1
 *      and their mean spacing P +-2 %, none closer than P/2 (a latch per period, not a level).
 *   3. With IntrMask = PCSTimeout the interrupt line follows, once per period (what a driver
 *      that moderates with the timer waits for): INTx is kept from the guest with
 *      PCI_COMMAND.INTX_DISABLE, but QEMU still shows the line's level in PCI_STATUS bit 3
 *      (Interrupt Status), read through sysfs config; N and a half periods must give N+-1 rising
 *      levels, each with PCSTimeout set in IntrStatus, each gone after the ack (MSI must be
 *      off: the NIC is unbound).
 *   4. TimerInt = 0 switches it off: no latch in the next 3 periods.
 * Registers are restored (TimerInt 0, IntrMask and PCI_COMMAND as found, PCSTimeout cleared).
 * Output: one line "RESULT tool=chip-timer status=ok|fail ... [reason=...]"; exit 0 when ok,
 * 1 when a check failed, 2 on bad arguments or when BAR2 cannot be mapped.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "rtl8168-regs.h" /* guest-tests/programs: the guest side's one register map */

static volatile uint8_t *g_bar;
static int g_cfg = -1;

static uint16_t cfg16(unsigned off) {
  uint16_t v = 0xffff;
  if (pread(g_cfg, &v, 2, off) != 2) v = 0xffff;
  return v;
}
static void cfg16_write(unsigned off, uint16_t v) {
  if (pwrite(g_cfg, &v, 2, off) != 2) perror("config write");
}
#define PCI_COMMAND_INTX_DISABLE 0x400u
#define PCI_STATUS_INTERRUPT 0x08u
#define MSI_CONTROL 0x52 /* the shim's MSI capability at 0x50 */

static uint32_t rd32(unsigned off) { return *(volatile uint32_t *)(g_bar + off); }
static uint16_t rd16(unsigned off) { return *(volatile uint16_t *)(g_bar + off); }
static void wr32(unsigned off, uint32_t v) { *(volatile uint32_t *)(g_bar + off) = v; }
static void wr16(unsigned off, uint16_t v) { *(volatile uint16_t *)(g_bar + off) = v; }

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void spin_until(uint64_t t) {
  while (now_ns() < t) {
  }
}

static char g_reason[256];
static void failure(const char *what) {
  if (!g_reason[0]) snprintf(g_reason, sizeof(g_reason), "%s", what);
}

int main(int argc, char **argv) {
  double mhz = 125.0, period_us = 1000.0;
  unsigned periods = 20, i;
  char path[256], line[1024];
  int n = 0;
  if (argc < 2 || argv[1][0] == '-') {
    fprintf(stderr, "usage: chip-timer BDF [--mhz F] [--period-us P] [--periods N]\n");
    return 2;
  }
  for (i = 2; i + 1 < (unsigned)argc; i += 2) {
    if (!strcmp(argv[i], "--mhz")) mhz = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--period-us")) period_us = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--periods")) periods = (unsigned)atoi(argv[i + 1]);
    else break;
  }
  if (i != (unsigned)argc || mhz <= 0 || period_us < 10 || periods < 3 || periods > 1000) {
    fprintf(stderr, "chip-timer: bad arguments (see the header of chip-timer.c)\n");
    return 2;
  }
  snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource2", argv[1]);
  int fd = open(path, O_RDWR | O_SYNC);
  if (fd < 0) {
    perror(path);
    return 2;
  }
  g_bar = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (g_bar == MAP_FAILED) {
    perror("mmap resource2");
    return 2;
  }
  snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", argv[1]);
  g_cfg = open(path, O_RDWR);
  if (g_cfg < 0) {
    perror(path);
    return 2;
  }

  const uint16_t mask0 = rd16(REG_INTRMASK);
  wr16(REG_INTRMASK, 0);
  wr32(REG_TIMERINT, 0);
  wr16(REG_INTRSTATUS, INT_PCSTIMEOUT);

  /* 1. the counter's rate, free-running, restart on write */
  const uint64_t span_ns = 5000000; /* 5 ms */
  wr32(REG_TCTR, 0x12345678);
  uint32_t c_restart = rd32(REG_TCTR);
  uint64_t t0 = now_ns();
  uint32_t c0 = rd32(REG_TCTR);
  spin_until(t0 + span_ns);
  uint64_t t1 = now_ns();
  uint32_t c1 = rd32(REG_TCTR);
  spin_until(t1 + span_ns / 5);
  uint32_t c2 = rd32(REG_TCTR);
  double tctr_mhz = (double)(uint32_t)(c1 - c0) * 1000.0 / (double)(t1 - t0);
  if (tctr_mhz < mhz * 0.98 || tctr_mhz > mhz * 1.02) failure("TCTR does not count at the timer clock");
  if (!(c2 > c1 && c1 > c0)) failure("TCTR is not free-running (reads did not increase)");
  if ((double)c_restart > mhz * 50.0) failure("a TCTR write did not restart the count from 0");

  /* 2. TimerInt: PCSTimeout latches once per period */
  const uint32_t compare = (uint32_t)(period_us * mhz + 0.5);
  uint64_t latch_t[1024];
  unsigned latches = 0, early = 0;
  wr16(REG_INTRSTATUS, INT_PCSTIMEOUT);
  /* the count must *reach* TimerInt: programmed below the current count, the first match
     would follow the 32-bit wrap (34 s at 125 MHz), so restart the count right after */
  wr32(REG_TIMERINT, compare);
  wr32(REG_TCTR, 0);
  uint64_t start = now_ns();
  /* N periods and a half: N matches, the last one half a period before the end */
  const uint64_t window = (uint64_t)((periods + 0.5) * period_us * 1000.0);
  while (now_ns() - start < window) {
    if (rd16(REG_INTRSTATUS) & INT_PCSTIMEOUT) {
      uint64_t t = now_ns();
      wr16(REG_INTRSTATUS, INT_PCSTIMEOUT);
      if (latches < sizeof(latch_t) / sizeof(latch_t[0])) latch_t[latches] = t;
      if (latches && t - latch_t[latches - 1] < (uint64_t)(period_us * 500.0)) early++;
      latches++;
    }
  }
  double mean_us = 0, min_us = 0, max_us = 0;
  if (latches >= 2) {
    mean_us = (double)(latch_t[latches - 1] - latch_t[0]) / 1000.0 / (latches - 1);
    min_us = max_us = (double)(latch_t[1] - latch_t[0]) / 1000.0;
    for (i = 2; i < latches; i++) {
      double d = (double)(latch_t[i] - latch_t[i - 1]) / 1000.0;
      if (d < min_us) min_us = d;
      if (d > max_us) max_us = d;
    }
  }
  if (latches + 1 < periods || latches > periods + 1) failure("PCSTimeout did not latch once per period");
  else if (mean_us < period_us * 0.98 || mean_us > period_us * 1.02) failure("PCSTimeout period is not TimerInt / timer clock");
  if (early) failure("PCSTimeout latched again less than half a period after it was cleared");
  const uint32_t ti_read = rd32(REG_TIMERINT);
  if (ti_read != compare) failure("TimerInt does not read back");

  /* 3. IntrMask = PCSTimeout: the INT line rises once per period */
  const uint16_t cmd0 = cfg16(0x04);
  unsigned irqs = 0, irq_without_bit = 0, stuck = 0;
  if (cfg16(MSI_CONTROL) & 1) failure("MSI is still enabled on the unbound NIC");
  cfg16_write(0x04, (uint16_t)(cmd0 | PCI_COMMAND_INTX_DISABLE));
  wr32(REG_TIMERINT, 0);
  wr16(REG_INTRSTATUS, 0xffff);
  const unsigned high_idle = (cfg16(0x06) & PCI_STATUS_INTERRUPT) != 0;
  if (high_idle) failure("the INT line is high with nothing pending");
  wr16(REG_INTRMASK, INT_PCSTIMEOUT);
  wr32(REG_TIMERINT, compare);
  wr32(REG_TCTR, 0);
  start = now_ns();
  while (now_ns() - start < window) {
    if (cfg16(0x06) & PCI_STATUS_INTERRUPT) {
      irqs++;
      if (!(rd16(REG_INTRSTATUS) & INT_PCSTIMEOUT)) irq_without_bit++;
      wr16(REG_INTRSTATUS, INT_PCSTIMEOUT);
      if (cfg16(0x06) & PCI_STATUS_INTERRUPT) stuck++;
    }
  }
  wr16(REG_INTRMASK, 0);
  wr32(REG_TIMERINT, 0);
  wr16(REG_INTRSTATUS, INT_PCSTIMEOUT);
  cfg16_write(0x04, cmd0);
  if (irqs + 1 < periods || irqs > periods + 1) failure("the INT line did not rise once per period with IntrMask = PCSTimeout");
  if (irq_without_bit) failure("the INT line rose without PCSTimeout in IntrStatus");
  if (stuck) failure("the INT line stayed high after PCSTimeout was acknowledged");

  /* 4. TimerInt = 0: off */
  wr32(REG_TIMERINT, 0);
  wr16(REG_INTRSTATUS, INT_PCSTIMEOUT);
  unsigned off_latches = 0;
  start = now_ns();
  while (now_ns() - start < (uint64_t)(3 * period_us * 1000.0)) {
    if (rd16(REG_INTRSTATUS) & INT_PCSTIMEOUT) {
      off_latches++;
      wr16(REG_INTRSTATUS, INT_PCSTIMEOUT);
    }
  }
  if (off_latches) failure("PCSTimeout latched with TimerInt = 0");

  wr16(REG_INTRSTATUS, INT_PCSTIMEOUT);
  wr16(REG_INTRMASK, mask0);
  n = snprintf(line, sizeof(line),
               "RESULT tool=chip-timer status=%s bdf=%s mhz=%.3f tctr_mhz=%.3f tctr=%u,%u,%u "
               "restart_count=%u period_us=%.1f timer_int=%u periods=%u latches=%u "
               "mean_period_us=%.3f min_period_us=%.3f max_period_us=%.3f early=%u "
               "intx_rises=%u intx_without_pcs=%u intx_stuck=%u off_latches=%u",
               g_reason[0] ? "fail" : "ok", argv[1], mhz, tctr_mhz, c0, c1, c2, c_restart,
               period_us, compare, periods, latches, mean_us, min_us, max_us, early, irqs,
               irq_without_bit, stuck, off_latches);
  if (g_reason[0] && n > 0 && (size_t)n < sizeof(line)) {
    char *p;
    for (p = g_reason; *p; p++)
      if (*p == ' ') *p = '_';
    snprintf(line + n, sizeof(line) - (size_t)n, " reason=%s", g_reason);
  }
  puts(line);
  return g_reason[0] ? 1 : 0;
}
