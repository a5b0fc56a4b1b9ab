/* A bare C loop of N threads, each on its own preallocated file, each making pwrite + fdatasync
 * back to back (durprobe's "--writers N --writers-modes threads" with fdatasync 4 KiB), released
 * together and stopped after SECONDS. No per-operation timing: the reference for what durprobe's
 * harness costs per operation with N writers (scripts/bench-vs-peers.sh --writers).
 * usage: bare_threads_fdatasync DIR THREADS WRITE_SIZE FILE_SIZE SECONDS
 *   -> prints "ops_per_sec N" (all threads together), "ops N", "seconds S" */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
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

struct writer {
  pthread_t thread;
  int fd;
  size_t size, file_size;
  long ops;
  double seconds;
};

static pthread_barrier_t start_line;
static double run_seconds;

static void* run(void* arg) {
  struct writer* w = arg;
  char* buf = malloc(w->size);
  for (size_t i = 0; i < w->size; ++i) buf[i] = (char)(i * 131 + 7);
  for (int i = 0; i < 5; ++i) { pwrite(w->fd, buf, w->size, 0); fdatasync(w->fd); } /* warm-up */
  pthread_barrier_wait(&start_line);
  off_t off = 0;
  uint64_t start = now_ns(), end = start + (uint64_t)(run_seconds * 1e9), t = start;
  while (t < end) {
    if (off + (off_t)w->size > (off_t)w->file_size) off = 0;
    if (pwrite(w->fd, buf, w->size, off) != (ssize_t)w->size || fdatasync(w->fd) != 0) {
      perror("io");
      exit(1);
    }
    off += (off_t)w->size;
    ++w->ops;
    if ((w->ops & 15) == 0) t = now_ns();
  }
  w->seconds = (double)(now_ns() - start) / 1e9;
  free(buf);
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: %s DIR THREADS WRITE_SIZE FILE_SIZE SECONDS\n", argv[0]);
    return 2;
  }
  int n = atoi(argv[2]);
  size_t size = strtoul(argv[3], NULL, 10), file_size = strtoul(argv[4], NULL, 10);
  run_seconds = atof(argv[5]);
  if (n < 1 || n > 1024 || size == 0 || file_size < size) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  struct writer* w = calloc((size_t)n, sizeof *w);
  char* zeros = calloc(1, file_size);
  pthread_barrier_init(&start_line, NULL, (unsigned)n);
  for (int i = 0; i < n; ++i) {
    char path[4096];
    snprintf(path, sizeof path, "%s/bare_threads_%d.dat", argv[1], i);
    w[i].fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (w[i].fd < 0 || pwrite(w[i].fd, zeros, file_size, 0) != (ssize_t)file_size ||
        fsync(w[i].fd) != 0) {
      perror("prefill");
      return 1;
    }
    unlink(path);
    w[i].size = size;
    w[i].file_size = file_size;
  }
  for (int i = 0; i < n; ++i) pthread_create(&w[i].thread, NULL, run, &w[i]);
  long ops = 0;
  double rate = 0, longest = 0;
  for (int i = 0; i < n; ++i) {
    pthread_join(w[i].thread, NULL);
    ops += w[i].ops;
    if (w[i].seconds > 0) rate += (double)w[i].ops / w[i].seconds; /* as durprobe sums them */
    if (w[i].seconds > longest) longest = w[i].seconds;
  }
  printf("ops_per_sec %.1f\nops %ld\nseconds %.3f\n", rate, ops, longest);
  return 0;
}
