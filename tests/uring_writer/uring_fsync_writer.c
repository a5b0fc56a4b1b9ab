/* The io_uring writer of tests/integration/watch_calls_test.cc: PATH COUNT writes 4 KiB with
 * pwrite, then syncs it through io_uring (IORING_OP_FSYNC, every other one with
 * IORING_FSYNC_DATASYNC), COUNT times; strace sees no sync, durprobe watch must see each. */
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  int count = atoi(argv[2]);
  struct io_uring ring;
  if (io_uring_queue_init(4, &ring, 0) != 0) return 1;
  int fd = open(argv[1], O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) return 1;
  char buf[4096];
  memset(buf, 'u', sizeof buf);
  for (int i = 0; i < count; i++) {
    if (pwrite(fd, buf, sizeof buf, (off_t)i * 4096) != (ssize_t)sizeof buf) return 1;
    struct io_uring_sqe* sqe = io_uring_get_sqe(&ring);
    io_uring_prep_fsync(sqe, fd, i % 2 ? IORING_FSYNC_DATASYNC : 0);
    io_uring_submit(&ring);
    struct io_uring_cqe* cqe;
    if (io_uring_wait_cqe(&ring, &cqe) != 0 || cqe->res < 0) return 1;
    io_uring_cqe_seen(&ring, cqe);
  }
  close(fd);
  io_uring_queue_exit(&ring);
  return 0;
}
