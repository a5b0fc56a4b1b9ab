/* A bare loop of the syscalls durprobe's "fdatasync overwrite" probe makes (pwrite + fdatasync,
 * cycling through a preallocated file).
 * Untimed mode: timed as a whole with no per-operation bookkeeping; scripts/bench-vs-peers.sh
 * compares its ops/s with durprobe's to show what the harness adds.
 * Timed mode ("timed" as a 5th argument): each operation timed back to back with clock_gettime
 * (one reading per operation; durprobe reads once more before each operation, so that its own
 * recording is in no operation) into a preallocated, pre-touched array,
 * then its percentiles: the reference for durprobe's own per-operation tail.
 * usage: bare_fdatasync DIR WRITE_SIZE FILE_SIZE SECONDS [timed]
 *   -> prints "ops_per_sec N" (and in timed mode p50_ns, p90_ns, p99_ns, p999_ns, max_ns) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u32(const void* a, const void* b) {
  uint32_t x = *(const uint32_t*)a, y = *(const uint32_t*)b;
  return (x > y) - (x < y);
}

/* Nearest rank, as durprobe's Percentile. */
static uint32_t pct(const uint32_t* v, long n, double q) {
  long rank = (long)(q * (double)n + 0.999999);
  return v[rank <= 0 ? 0 : rank - 1];
}

int main(int argc, char** argv) {
  if (argc != 5 && !(argc == 6 && strcmp(argv[5], "timed") == 0)) {
    fprintf(stderr, "usage: %s DIR WRITE_SIZE FILE_SIZE SECONDS [timed]\n", argv[0]);
    return 2;
  }
  int timed = argc == 6;
  char path[4096];
  snprintf(path, sizeof path, "%s/bare_fdatasync.dat", argv[1]);
  size_t size = strtoul(argv[2], NULL, 10), file_size = strtoul(argv[3], NULL, 10);
  double seconds = atof(argv[4]);
  int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) { perror("open"); return 1; }
  char* zeros = calloc(1, file_size);
  char* buf = malloc(size);
  for (size_t i = 0; i < size; ++i) buf[i] = (char)(i * 131 + 7);
  if (pwrite(fd, zeros, file_size, 0) != (ssize_t)file_size || fsync(fd) != 0) {
    perror("prefill");
    return 1;
  }
  /* Room for 2 M operations per second, touched now so no page fault lands in a timing. */
  long cap = timed ? (long)(seconds * 2e6) + 1024 : 0;
  uint32_t* lat = timed ? malloc((size_t)cap * sizeof *lat) : NULL;
  if (timed && lat == NULL) { perror("malloc"); return 1; }
  if (timed) memset(lat, 0, (size_t)cap * sizeof *lat);
  for (int i = 0; i < 5; ++i) { pwrite(fd, buf, size, 0); fdatasync(fd); }  /* warm-up */
  long ops = 0;
  off_t off = 0;
  uint64_t start = now_ns(), end = start + (uint64_t)(seconds * 1e9), t = start;
  while (t < end && (!timed || ops < cap)) {
    if (off + (off_t)size > (off_t)file_size) off = 0;
    if (pwrite(fd, buf, size, off) != (ssize_t)size || fdatasync(fd) != 0) { perror("io"); return 1; }
    off += (off_t)size;
    if (timed) {
      uint64_t t1 = now_ns();
      lat[ops] = (uint32_t)(t1 - t > 0xffffffffu ? 0xffffffffu : t1 - t);
      t = t1;
    } else if (((ops + 1) & 63) == 0) {
      t = now_ns();
    }
    ++ops;
  }
  double elapsed = (double)(now_ns() - start) / 1e9;
  printf("ops_per_sec %.1f\nops %ld\nseconds %.3f\n", (double)ops / elapsed, ops, elapsed);
  if (timed && ops > 0) {
    qsort(lat, (size_t)ops, sizeof *lat, cmp_u32);
    printf("p50_ns %u\np90_ns %u\np99_ns %u\np999_ns %u\nmax_ns %u\n", pct(lat, ops, 0.5),
           pct(lat, ops, 0.9), pct(lat, ops, 0.99), pct(lat, ops, 0.999), lat[ops - 1]);
  }
  close(fd);
  unlink(path);
  return 0;
}
