/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hostile - feed the rtl8168 device garbage through BAR2, deterministically (fixed seed).
 *
 *   hostile [--seed N] [--writes N] [--delay-us N] [--sysfs DIR] [BDF]
 *
 * Run as root in the guest with the r8169 driver unbound (the scenario script does
 * `echo BDF > /sys/bus/pci/drivers/r8169/unbind`). BDF defaults to the first PCI device
 * 10ec:8168 found in /sys/bus/pci/devices. Prints one line and exits 0:
 *   RESULT tool=hostile status=ok writes=N reads=N seed=S bdf=B dma=pagemap|none
 *
 * What it does (register map: docs/R8169.md sections 2 and 3):
 *  - sets Memory Space, Bus Master and INTx-Disable in the PCI command register (a
 *    setpci-equivalent write to the sysfs `config` file) so that DMA really happens and
 *    garbage IntrMask values cannot raise an unhandled INTx line shared with other devices;
 *  - maps BAR2 (`resource2`) and, from an xorshift64* generator seeded with --seed, mixes:
 *    random writes/reads at random offsets with widths 1/2/4 (odd offsets included),
 *    ring bases (TxDescStart 0x20, TxHDescStart 0x28, RxDescStart 0xE4) set to bad
 *    addresses (0xdeadbeef000, beyond any guest RAM, unaligned) or to its own rings, TX/RX
 *    rings of garbage descriptors (Own set, zero/huge/random lengths, wild buffer
 *    addresses, no EOR), TxPoll doorbells, ChipCmd resets and DTCCR tally dumps.
 *
 * Hostile, but it must not corrupt the guest, or "after a driver reload traffic works
 * again" could not be checked: everything the device may WRITE (ring bases, RX buffers,
 * the tally block) points either beyond RAM or into this program's own locked pages,
 * whose physical addresses come from /proc/self/pagemap. A ring without EOR is placed on
 * a page whose physically next page is also ours and zeroed, so the engines stop there;
 * RX buffers start 16 KiB of physically contiguous pages of ours (the size field is 14
 * bits).
 * Random register writes never touch the DMA address registers (0x10-0x17, 0x20-0x2f,
 * 0xe4-0xeb). TX buffer addresses may be anything: the device only reads them. Without
 * pagemap PFNs (not root), only beyond-RAM addresses are used. At the end it stops both
 * engines, resets the chip, restores the MAC address and the PCI command register
 * (normally Bus Master off), waits, and only then frees its pages.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Registers (docs/R8169.md section 2): the guest side's one register map. */
#include "rtl8168-regs.h"

#define DESC_OWN 0x80000000u
#define DESC_EOR 0x40000000u

#define PCI_COMMAND 0x04
#define PCI_CMD_IO 0x0001
#define PCI_CMD_MEM 0x0002
#define PCI_CMD_MASTER 0x0004
#define PCI_CMD_INTX_DISABLE 0x0400

#define PAGE 4096u
#define NPAGES 512u     /* DMA area: 2 MiB, locked */
#define RING_PAGES 256u /* pages [0, 256) hold rings; [256, 512) receive data and tallies */

typedef uint16_t __attribute__((aligned(1))) u16_una; /* odd-offset MMIO on x86 */
typedef uint32_t __attribute__((aligned(1))) u32_una;

static volatile uint8_t *g_bar;
static size_t g_bar_size;
/* Two xorshift64* streams: g_rng drives the actions and register values; g_dma_rng every
 * choice that depends on where our pages landed physically (which varies run to run), so
 * the sequence of register accesses depends only on --seed. */
static uint64_t g_rng, g_dma_rng;
static uint64_t *g_cur = &g_rng;
static unsigned long g_writes, g_reads;

/* Our DMA pages: virtual address and physical address (0 = unknown). */
static uint8_t *g_dma;
static uint64_t g_phys[NPAGES];
static int g_have_phys;
/* EOR-less rings go on page `ring`; page `stop` is physically next and stays zero, so the
 * engines stop there. */
static struct pair { unsigned ring, stop; } g_pair[RING_PAGES / 2];
static unsigned g_npairs;
/* Data pages q starting 16 KiB of physically contiguous pages of ours: RX buffers (the
 * descriptor size field is 14 bits, so 16 KiB bounds any frame). */
static unsigned g_quad[NPAGES - RING_PAGES];
static unsigned g_nquads;

static void die(const char *fmt, const char *arg) {
  fprintf(stderr, "hostile: ");
  fprintf(stderr, fmt, arg, strerror(errno));
  fputc('\n', stderr);
  printf("RESULT tool=hostile status=error\n");
  exit(4);
}

static uint64_t rnd(void) { /* xorshift64* */
  *g_cur ^= *g_cur >> 12;
  *g_cur ^= *g_cur << 25;
  *g_cur ^= *g_cur >> 27;
  return *g_cur * 0x2545f4914f6cdd1dull;
}

static uint64_t *use_rng(uint64_t *state) {
  uint64_t *previous = g_cur;
  g_cur = state;
  return previous;
}

static uint32_t rnd32(void) { return (uint32_t)(rnd() >> 32); }
static unsigned below(unsigned n) { return (unsigned)(rnd() % n); }

/* ---- MMIO -------------------------------------------------------------------------- */

static void wr(unsigned off, unsigned width, uint32_t v) {
  if (off + width > g_bar_size) return;
  if (width == 1)
    *(volatile uint8_t *)(g_bar + off) = (uint8_t)v;
  else if (width == 2)
    *(volatile u16_una *)(g_bar + off) = (uint16_t)v;
  else
    *(volatile u32_una *)(g_bar + off) = v;
  g_writes++;
}

static uint32_t rd(unsigned off, unsigned width) {
  g_reads++;
  if (off + width > g_bar_size) return 0;
  if (width == 1) return *(volatile uint8_t *)(g_bar + off);
  if (width == 2) return *(volatile u16_una *)(g_bar + off);
  return *(volatile u32_una *)(g_bar + off);
}

static void wr64(unsigned off, uint64_t v) { /* high word first, as r8169 does */
  wr(off + 4, 4, (uint32_t)(v >> 32));
  wr(off, 4, (uint32_t)v);
}

/* ---- PCI device discovery and command register -------------------------------------- */

static int read_hex(const char *path, unsigned *out) {
  FILE *f = fopen(path, "r");
  int ok = f && fscanf(f, "%x", out) == 1;
  if (f) fclose(f);
  return ok;
}

static const char *g_sysfs = "/sys"; /* --sysfs: a fake tree for the host-side test */

static int find_device(char *bdf, size_t len) {
  char dir[512];
  DIR *d;
  snprintf(dir, sizeof(dir), "%s/bus/pci/devices", g_sysfs);
  d = opendir(dir);
  struct dirent *e;
  int found = 0;
  if (!d) return 0;
  while (!found && (e = readdir(d)) != NULL) {
    char path[1024];
    unsigned vendor = 0, device = 0;
    if (e->d_name[0] == '.') continue;
    snprintf(path, sizeof(path), "%s/%s/vendor", dir, e->d_name);
    if (!read_hex(path, &vendor) || vendor != 0x10ec) continue;
    snprintf(path, sizeof(path), "%s/%s/device", dir, e->d_name);
    if (!read_hex(path, &device) || device != 0x8168) continue;
    snprintf(bdf, len, "%s", e->d_name);
    found = 1;
  }
  closedir(d);
  return found;
}

static uint16_t config_command(int fd, int write, uint16_t value) {
  uint8_t b[2] = {(uint8_t)value, (uint8_t)(value >> 8)};
  ssize_t n = write ? pwrite(fd, b, 2, PCI_COMMAND) : pread(fd, b, 2, PCI_COMMAND);
  if (n != 2) die("%s PCI command register: %s", write ? "write" : "read");
  return (uint16_t)(b[0] | (b[1] << 8));
}

/* ---- DMA area ------------------------------------------------------------------------ */

static int has_phys(unsigned from, unsigned to, uint64_t phys, unsigned *at) {
  unsigned i;
  for (i = from; i < to; i++)
    if (g_phys[i] == phys) {
      if (at) *at = i;
      return 1;
    }
  return 0;
}

static void setup_dma(void) {
  static unsigned char used[RING_PAGES];
  int fd;
  unsigned i, j, s;
  uint8_t *raw;
  /* 2 MiB-aligned and MADV_HUGEPAGE: one transparent huge page is physically contiguous. */
  raw = mmap(NULL, 2 * NPAGES * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) die("mmap %s: %s", "DMA area");
  g_dma = raw + ((NPAGES * PAGE - ((uintptr_t)raw & (NPAGES * PAGE - 1))) & (NPAGES * PAGE - 1));
  madvise(g_dma, NPAGES * PAGE, MADV_HUGEPAGE);
  memset(g_dma, 0, NPAGES * PAGE);
  if (mlock(g_dma, NPAGES * PAGE) != 0) return; /* unpinned pages: use bad addresses only */
  fd = open("/proc/self/pagemap", O_RDONLY);
  if (fd < 0) return;
  for (i = 0; i < NPAGES; i++) {
    uint64_t entry = 0;
    off_t at = (off_t)(((uintptr_t)(g_dma + (size_t)i * PAGE) / PAGE) * 8);
    if (pread(fd, &entry, 8, at) == 8 && (entry >> 63) && (entry & ((1ull << 55) - 1)))
      g_phys[i] = (entry & ((1ull << 55) - 1)) * PAGE;
  }
  close(fd);
  for (i = 0; i < NPAGES; i++) g_have_phys |= g_phys[i] != 0;
  for (i = 0; i < RING_PAGES; i++) {
    if (!g_phys[i] || used[i] || !has_phys(0, RING_PAGES, g_phys[i] + PAGE, &s) || used[s])
      continue;
    used[i] = used[s] = 1;
    g_pair[g_npairs].ring = i;
    g_pair[g_npairs++].stop = s;
  }
  for (i = RING_PAGES; i < NPAGES; i++) {
    for (j = 1; j < 4 && has_phys(RING_PAGES, NPAGES, g_phys[i] + j * PAGE, NULL); j++) {
    }
    if (g_phys[i] && j == 4) g_quad[g_nquads++] = i;
  }
}

/* An address the device can never reach: beyond any guest RAM and the MSI window. */
static uint64_t bad_address(void) {
  static const uint64_t fixed[] = {0xdeadbeef000ull, 0xdeadbeef00dull, 1ull << 40,
                                   0xfffffffffffff000ull, 0x8000000000000000ull};
  if (below(2)) return fixed[below(sizeof(fixed) / sizeof(fixed[0]))];
  return (1ull << 40) + ((rnd() & 0xffffffffffull) & ~(uint64_t)(below(2) ? 0xff : 0));
}

/* Physical address inside one of our pages (or a bad one without pagemap). */
static uint64_t our_address(unsigned page, unsigned offset) {
  return g_phys[page] ? g_phys[page] + offset : bad_address();
}

static uint64_t tally_target(void) { /* 64 bytes the device may write */
  uint64_t *saved = use_rng(&g_dma_rng);
  unsigned page = RING_PAGES + below(NPAGES - RING_PAGES);
  uint64_t addr =
      below(3) || !g_phys[page] ? bad_address() : our_address(page, below(PAGE / 64) * 64);
  use_rng(saved);
  return addr;
}

static uint64_t rx_buffer(void) { /* a frame the device may write (g_dma_rng) */
  return below(2) && g_nquads ? g_phys[g_quad[below(g_nquads)]] : bad_address();
}

static void put_desc(uint8_t *ring, unsigned idx, uint32_t opts1, uint32_t opts2, uint64_t addr) {
  uint32_t w[4] = {opts1, opts2, (uint32_t)addr, (uint32_t)(addr >> 32)};
  memcpy(ring + (size_t)idx * 16, w, sizeof(w));
}

static uint32_t garbage_length(void) {
  static const uint32_t lengths[] = {0, 1, 14, 59, 60, 1514, 1518, 9000, 0x3fff, 0xffff};
  return below(2) ? lengths[below(sizeof(lengths) / sizeof(lengths[0]))] : rnd32() & 0xffff;
}

/* Fill an EOR-less (or randomly EOR-ed) ring on pair page `p`; page p + 1 stays zero. */
static uint64_t garbage_ring(int rx) {
  static uint8_t scratch[PAGE]; /* when no pair exists: same draws, bad ring address */
  uint64_t *saved = use_rng(&g_dma_rng), base;
  unsigned i, n = 1 + below(256);
  uint8_t *ring = scratch;
  if (g_npairs) {
    struct pair *p = &g_pair[below(g_npairs)];
    ring = g_dma + (size_t)p->ring * PAGE;
    memset(g_dma + (size_t)p->stop * PAGE, 0, PAGE);
    base = g_phys[p->ring];
  } else {
    base = bad_address();
  }
  memset(ring, 0, PAGE);
  for (i = 0; i < n; i++) {
    uint32_t opts1 = DESC_OWN | (below(8) == 0 ? DESC_EOR : 0);
    uint64_t addr;
    if (rx) {
      opts1 |= garbage_length() & 0x3fff;
      addr = rx_buffer();
    } else { /* read only: any address, any flags (FS/LS/LGSEN/checksum bits) */
      opts1 |= (rnd32() & 0x3fff0000u) | garbage_length();
      addr = below(4) ? rnd() : below(2) ? bad_address() : our_address(below(NPAGES), below(PAGE));
    }
    put_desc(ring, i, opts1, rnd32(), addr);
  }
  __sync_synchronize();
  use_rng(saved);
  return base;
}

/* ---- actions ------------------------------------------------------------------------- */

static int dma_register(unsigned off, unsigned width) {
  static const unsigned lo[] = {REG_COUNTER_LO, REG_TXDESC_LO, REG_RXDESC_LO};
  static const unsigned hi[] = {REG_COUNTER_LO + 8, REG_TXHDESC_LO + 8, REG_RXDESC_LO + 8};
  unsigned i;
  for (i = 0; i < 3; i++)
    if (off < hi[i] && off + width > lo[i]) return 1;
  return 0;
}

static void random_access(void) {
  static const unsigned widths[] = {1, 2, 4};
  unsigned width = widths[below(3)];
  unsigned off = below(8) ? below(0x100) : below((unsigned)g_bar_size);
  if (off + width > g_bar_size) off = (unsigned)g_bar_size - width;
  if (below(5) == 0 || dma_register(off, width)) {
    rd(off, width);
    return;
  }
  if (below(4) == 0) wr(REG_CFG9346, 1, 0xc0); /* unlock the Config registers */
  wr(off, width, rnd32());
}

static void bad_ring_base(void) {
  static const unsigned regs[] = {REG_TXDESC_LO, REG_TXHDESC_LO, REG_RXDESC_LO};
  wr64(regs[below(3)], bad_address());
  if (below(2)) wr(REG_CHIPCMD, 1, CMD_RXEN | CMD_TXEN);
  if (below(2)) wr(REG_TXPOLL, 1, below(2) ? TXPOLL_NPQ : TXPOLL_HPQ);
}

static void tx_ring(void) {
  wr64(below(4) ? REG_TXDESC_LO : REG_TXHDESC_LO, garbage_ring(0));
  wr(REG_TXCONFIG, 4, below(2) ? 0x03000700 : rnd32());
  wr(REG_CPLUSCMD, 2, rnd32() & 0xffff);
  wr(REG_CHIPCMD, 1, CMD_RXEN | CMD_TXEN);
  wr(REG_TXPOLL, 1, below(4) ? TXPOLL_NPQ : TXPOLL_HPQ | TXPOLL_NPQ);
}

static void rx_ring(void) {
  wr64(REG_RXDESC_LO, garbage_ring(1));
  wr(REG_RXMAXSIZE, 2, below(2) ? 0x4000 : rnd32() & 0xffff);
  wr(REG_RXCONFIG, 4, 0xc73f); /* accept everything */
  wr(REG_CHIPCMD, 1, CMD_RXEN | CMD_TXEN);
}

static void doorbells(void) {
  static const uint8_t values[] = {TXPOLL_NPQ, TXPOLL_HPQ, 0xff, 0x01, 0x00};
  unsigned i, n = 1 + below(16);
  for (i = 0; i < n; i++) wr(REG_TXPOLL, 1, values[below(sizeof(values))]);
}

static void chip_reset(void) {
  unsigned i;
  wr(REG_CHIPCMD, 1, below(4) ? CMD_RESET : rnd32());
  for (i = 0; i < 100 && (rd(REG_CHIPCMD, 1) & CMD_RESET); i++) usleep(100);
}

static void tally_dump(void) {
  uint64_t addr = tally_target();
  wr(REG_COUNTER_LO + 4, 4, (uint32_t)(addr >> 32));
  wr(REG_COUNTER_LO, 4, ((uint32_t)addr & ~0x3fu) | (below(4) ? 0x08u : (rnd32() & 0x3fu)));
}

static void interrupts(void) {
  wr(REG_INTRMASK, 2, rnd32() & 0xffff);
  wr(REG_INTRSTATUS, 2, rnd32() & 0xffff);
}

static void quiesce(const uint8_t mac[6]) {
  unsigned i;
  wr(REG_INTRMASK, 2, 0);
  wr(REG_CHIPCMD, 1, 0);
  wr(REG_CHIPCMD, 1, CMD_RESET);
  for (i = 0; i < 100 && (rd(REG_CHIPCMD, 1) & CMD_RESET); i++) usleep(100);
  wr64(REG_TXDESC_LO, 0);
  wr64(REG_TXHDESC_LO, 0);
  wr64(REG_RXDESC_LO, 0);
  wr64(REG_COUNTER_LO, 0);
  wr(REG_INTRSTATUS, 2, 0xffff);
  wr(REG_CFG9346, 1, 0xc0);
  for (i = 0; i < 6; i++) wr(REG_MAC0 + i, 1, mac[i]);
  wr(REG_CFG9346, 1, 0x00);
}

int main(int argc, char **argv) {
  char bdf[256] = "", path[1024];
  unsigned long writes = 5000, delay_us = 200, i;
  uint8_t mac[6];
  uint16_t old_cmd;
  struct stat st;
  int cfg, res, k;
  unsigned long long seed;
  g_rng = 0x8168;
  for (k = 1; k < argc; k++) {
    if (!strcmp(argv[k], "--seed") && k + 1 < argc)
      g_rng = strtoull(argv[++k], NULL, 0);
    else if (!strcmp(argv[k], "--writes") && k + 1 < argc)
      writes = strtoul(argv[++k], NULL, 0);
    else if (!strcmp(argv[k], "--delay-us") && k + 1 < argc)
      delay_us = strtoul(argv[++k], NULL, 0);
    else if (!strcmp(argv[k], "--sysfs") && k + 1 < argc)
      g_sysfs = argv[++k];
    else if (argv[k][0] != '-' && !bdf[0])
      snprintf(bdf, sizeof(bdf), "%s", argv[k]);
    else {
      fprintf(stderr,
              "Usage: hostile [--seed N] [--writes N] [--delay-us N] [--sysfs DIR] [BDF]\n");
      printf("RESULT tool=hostile status=usage\n");
      return 2;
    }
  }
  seed = (unsigned long long)g_rng;
  if (!g_rng) g_rng = 1;
  g_dma_rng = g_rng ^ 0x9e3779b97f4a7c15ull; /* xorshift needs a non-zero state */
  if (!bdf[0] && !find_device(bdf, sizeof(bdf))) {
    errno = ENODEV;
    die("no PCI device %s: %s", "10ec:8168");
  }

  snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/config", g_sysfs, bdf);
  cfg = open(path, O_RDWR);
  if (cfg < 0) die("open %s: %s", path);
  old_cmd = config_command(cfg, 0, 0);
  config_command(
      cfg, 1,
      (uint16_t)(old_cmd | PCI_CMD_MEM | PCI_CMD_IO | PCI_CMD_MASTER | PCI_CMD_INTX_DISABLE));

  snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/resource2", g_sysfs, bdf);
  res = open(path, O_RDWR | O_SYNC);
  if (res < 0 || fstat(res, &st) != 0) die("open %s: %s", path);
  g_bar_size = st.st_size > 0 && st.st_size < PAGE ? (size_t)st.st_size : PAGE;
  g_bar = mmap(NULL, g_bar_size, PROT_READ | PROT_WRITE, MAP_SHARED, res, 0);
  if (g_bar == MAP_FAILED) die("mmap %s: %s", path);

  setup_dma();
  for (k = 0; k < 6; k++) mac[k] = (uint8_t)rd(REG_MAC0 + (unsigned)k, 1);

  for (i = 0; g_writes < writes; i++) {
    unsigned action = below(100);
    if (action < 50)
      random_access();
    else if (action < 60)
      bad_ring_base();
    else if (action < 70)
      tx_ring();
    else if (action < 76)
      rx_ring();
    else if (action < 84)
      doorbells();
    else if (action < 90)
      chip_reset();
    else if (action < 95)
      tally_dump();
    else
      interrupts();
    if (delay_us && i % 16 == 15) usleep((useconds_t)delay_us); /* let the device work */
  }

  quiesce(mac);
  config_command(cfg, 1, old_cmd);
  usleep(100000); /* in-flight device work ends before our pages are freed */
  munmap((void *)g_bar, g_bar_size);
  close(res);
  close(cfg);
  printf(
      "RESULT tool=hostile status=ok writes=%lu reads=%lu seed=0x%llx bdf=%s dma=%s "
      "ring_pairs=%u rx_quads=%u\n",
      g_writes, g_reads, seed, bdf, g_have_phys ? "pagemap" : "none", g_npairs, g_nquads);
  return 0;
}
