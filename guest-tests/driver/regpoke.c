// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * regpoke - read or write one register of a PCI device through sysfs, for the driver smoke
 * test (e.g. clear Bus Master to strand TX frames and trigger the TX watchdog). Static,
 * built by guest-tests/driver/smoke-test. Prints the value read (before writing).
 *   regpoke BDF OFFSET WIDTH(1|2|4) [VALUE]           BAR2 via resource2 (mmap; only while
 *                                                     no driver holds the BAR)
 *   regpoke --config BDF OFFSET WIDTH(1|2|4) [VALUE]  configuration space (pread/pwrite)
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int config_access(int argc, char **argv) {
  char path[256];
  uint32_t v = 0;
  unsigned long off = strtoul(argv[2], NULL, 0), width = strtoul(argv[3], NULL, 0);
  if (off > 0xffc || (width != 1 && width != 2 && width != 4)) {
    fprintf(stderr, "regpoke: bad offset or width\n");
    return 2;
  }
  snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", argv[1]);
  int fd = open(path, O_RDWR);
  if (fd < 0 || pread(fd, &v, width, (off_t)off) != (ssize_t)width) {
    perror(path);
    return 1;
  }
  printf("0x%x\n", v);
  if (argc == 5) {
    uint32_t w = (uint32_t)strtoul(argv[4], NULL, 0);
    if (pwrite(fd, &w, width, (off_t)off) != (ssize_t)width) {
      perror(path);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  char path[256];
  if (argc >= 2 && !strcmp(argv[1], "--config")) {
    if (argc != 5 && argc != 6) {
      fprintf(stderr, "usage: regpoke --config BDF OFFSET WIDTH [VALUE]\n");
      return 2;
    }
    return config_access(argc - 1, argv + 1);
  }
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: regpoke BDF OFFSET WIDTH [VALUE]\n");
    return 2;
  }
  unsigned long off = strtoul(argv[2], NULL, 0), width = strtoul(argv[3], NULL, 0);
  if (off > 0xfc || (width != 1 && width != 2 && width != 4)) {
    fprintf(stderr, "regpoke: bad offset or width\n");
    return 2;
  }
  snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource2", argv[1]);
  int fd = open(path, O_RDWR | O_SYNC);
  if (fd < 0) {
    perror(path);
    return 1;
  }
  volatile uint8_t *bar = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (bar == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  uint32_t v = width == 1 ? bar[off] : width == 2 ? *(volatile uint16_t *)(bar + off)
                                                  : *(volatile uint32_t *)(bar + off);
  printf("0x%x\n", v);
  if (argc == 5) {
    uint32_t w = (uint32_t)strtoul(argv[4], NULL, 0);
    if (width == 1) bar[off] = (uint8_t)w;
    else if (width == 2) *(volatile uint16_t *)(bar + off) = (uint16_t)w;
    else *(volatile uint32_t *)(bar + off) = w;
  }
  return 0;
}
