/* A bare loop of the syscalls durprobe's "fdatasync overwrite" probe makes (pwrite + fdatasync,
 * cycling through a preallocated file), timed as a whole with no per-operation bookkeeping.
 * scripts/bench-vs-peers.sh compares its ops/s with durprobe's to show what the harness adds.
 * usage: bare_fdatasync DIR WRITE_SIZE FILE_SIZE SECONDS   -> prints "ops_per_sec N" */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s DIR WRITE_SIZE FILE_SIZE SECONDS\n", argv[0]);
    return 2;
  }
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
  for (int i = 0; i < 5; ++i) { pwrite(fd, buf, size, 0); fdatasync(fd); }  /* warm-up */
  long ops = 0;
  off_t off = 0;
  double start = now(), end = start + seconds, t = start;
  while (t < end) {
    if (off + (off_t)size > (off_t)file_size) off = 0;
    if (pwrite(fd, buf, size, off) != (ssize_t)size || fdatasync(fd) != 0) { perror("io"); return 1; }
    off += (off_t)size;
    ++ops;
    if ((ops & 63) == 0) t = now();
  }
  double elapsed = now() - start;
  printf("ops_per_sec %.1f\nops %ld\nseconds %.3f\n", ops / elapsed, ops, elapsed);
  close(fd);
  unlink(path);
  return 0;
}
