/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lab-util.h - the pieces lab-tool.c and fault-tool.c share: the virtual clock, the error
 * RESULT line, the SIGALRM bound every mode runs under, the datagram magic of the UDP modes
 * and the servers' ready file ($LAB_READY). Static definitions in the order both programs had them, so lab-tool's binary (which
 * the timing-sensitive episodes run: docs/REPRODUCE.md) builds to the same bytes. Include it
 * after the system headers.
 */
#ifndef LAB_UTIL_H
#define LAB_UTIL_H

#define UDP_MAGIC 0x52544c51u /* "RTLQ": first word of lab-tool udp-send / fault-tool udp-pace */

/* CLOCK_MONOTONIC in ns: virtual time under -icount */
static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* the mode's one output line when a system call failed; exit status 4 */
static void die(const char *tool, const char *what) {
  printf("RESULT tool=%s status=error error=%s errno=%d\n", tool, what, errno);
  fflush(stdout);
  exit(4);
}

static volatile sig_atomic_t g_alarm;
static void on_alarm(int sig) {
  (void)sig;
  g_alarm = 1;
}

/* SIGALRM after ms (virtual) milliseconds, without SA_RESTART: blocked calls return EINTR */
static void arm_alarm(uint64_t ms) {
  struct sigaction sa;
  struct itimerval it;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_alarm;
  sigaction(SIGALRM, &sa, NULL);
  memset(&it, 0, sizeof(it));
  it.it_value.tv_sec = (time_t)(ms / 1000);
  it.it_value.tv_usec = (suseconds_t)(ms % 1000) * 1000;
  setitimer(ITIMER_REAL, &it, NULL);
}

/* A server is listening on port: it says so in the file that ready (getenv("LAB_READY"))
 * names, if any, written whole under a temporary name. A macro, not a function: lab-tool must
 * build to the same bytes as when each server carried these lines itself. */
#define LAB_WRITE_READY(tool, ready, port)                 \
  do {                                                     \
    if ((ready) && *(ready)) {                             \
      char tmp[512];                                       \
      FILE *f;                                             \
      snprintf(tmp, sizeof(tmp), "%s.tmp", (ready));       \
      f = fopen(tmp, "w");                                 \
      if (!f) die((tool), "ready-file");                   \
      fprintf(f, "%d\n", (port));                          \
      fclose(f);                                           \
      rename(tmp, (ready));                                \
    }                                                      \
  } while (0)

#endif /* LAB_UTIL_H */
