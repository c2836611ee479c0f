/*
 * proctime: wall time of whole processes, for `make bench`'s whole-process column.
 *
 *   proctime [-n N] -- CMD ARG... [-- CMD ARG...]...
 *
 * Runs each command N times (default 11), the commands interleaved round by round,
 * stdout and stderr to /dev/null; prints per command one line
 *   median_ms=M min_ms=M cpu_ms=C status=S
 * with the median and minimum wall time from fork to exit, the median user+system CPU
 * time of the child, and the exit status of its last run (nonzero fails the caller).
 * Build: gcc -O2 -o proctime proctime.c
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int runs = 11, first = 1;
  if (argc > 2 && !strcmp(argv[1], "-n")) {
    runs = atoi(argv[2]);
    first = 3;
  }
  if (runs < 1 || first >= argc || strcmp(argv[first], "--")) {
    fprintf(stderr, "usage: proctime [-n N] -- CMD ARG... [-- CMD ARG...]...\n");
    return 2;
  }
  /* Split the commands at "--". */
  char ***cmds = calloc(argc, sizeof *cmds);
  int ncmds = 0;
  for (int i = first; i < argc; i++) {
    if (!strcmp(argv[i], "--")) {
      argv[i] = NULL;
      if (i + 1 < argc) cmds[ncmds++] = &argv[i + 1];
    }
  }
  double *wall = calloc((size_t)ncmds * runs, sizeof *wall);
  double *cpu = calloc((size_t)ncmds * runs, sizeof *cpu);
  int *status = calloc(ncmds, sizeof *status);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  for (int r = 0; r < runs; r++) {
    for (int k = 0; k < ncmds; k++) {
      /* Alternate which command goes first. */
      int c = r % 2 ? ncmds - 1 - k : k;
      pid_t pid;
      double t0 = now_ms();
      if (posix_spawnp(&pid, cmds[c][0], &actions, NULL, cmds[c], environ) != 0) {
        perror(cmds[c][0]);
        return 1;
      }
      int st;
      struct rusage ru;
      while (wait4(pid, &st, 0, &ru) < 0) {}
      wall[c * runs + r] = now_ms() - t0;
      cpu[c * runs + r] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                          (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-3;
      status[c] = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    }
  }
  int failed = 0;
  for (int c = 0; c < ncmds; c++) {
    qsort(wall + c * runs, runs, sizeof *wall, by_value);
    qsort(cpu + c * runs, runs, sizeof *cpu, by_value);
    printf("median_ms=%.3f min_ms=%.3f cpu_ms=%.3f status=%d\n", wall[c * runs + runs / 2], wall[c * runs],
           cpu[c * runs + runs / 2], status[c]);
    failed |= status[c] != 0;
  }
  return failed;
}
