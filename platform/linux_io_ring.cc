// The io_uring seam on Linux, through liburing (Debian: liburing-dev). Only this file includes
// liburing; platform.h's MakeRing is its one way in.
#include "platform/linux_io_ring.h"

#include <fmt/format.h>
#include <liburing.h>

#include <cerrno>
#include <cstring>

namespace durprobe::platform {
namespace {

std::string ErrnoName(int err) { return fmt::format("{} ({})", std::strerror(err), err); }

class LinuxIoRing final : public IoRing {
 public:
  ~LinuxIoRing() override {
    if (initialised_) io_uring_queue_exit(&ring_);
  }

  Status Init(unsigned entries) {
    int rc = io_uring_queue_init(entries, &ring_, 0);
    initialised_ = rc == 0;
    if (rc == 0) return Status::Ok();
    int err = -rc;
    if (err == ENOSYS || err == EPERM || err == EACCES || err == EOPNOTSUPP) {
      return Status::Unsupported(fmt::format(
          "io_uring is refused here (io_uring_setup: {}): the kernel lacks it, "
          "kernel.io_uring_disabled is set, or a seccomp filter (a container's) blocks it",
          ErrnoName(err)));
    }
    return Status::FromErrno(err, "io_uring_setup");
  }

  Status WriteThenSync(int fd, const void* buf, std::size_t n, std::uint64_t offset,
                       bool datasync) override {
    io_uring_sqe* write = io_uring_get_sqe(&ring_);
    io_uring_sqe* sync = write == nullptr ? nullptr : io_uring_get_sqe(&ring_);
    if (sync == nullptr) return Status::Error("io_uring: the submission queue is full");
    io_uring_prep_write(write, fd, buf, static_cast<unsigned>(n), offset);
    write->flags |= IOSQE_IO_LINK;
    write->user_data = 1;
    io_uring_prep_fsync(sync, fd, datasync ? IORING_FSYNC_DATASYNC : 0);
    sync->user_data = 2;
    int rc = io_uring_submit_and_wait(&ring_, 2);
    ++submissions_;
    if (rc < 0) return Status::FromErrno(-rc, "io_uring_enter");
    int write_res = 0, sync_res = 0;
    for (int seen = 0; seen < 2; ++seen) {
      io_uring_cqe* cqe = nullptr;
      int wrc = io_uring_wait_cqe(&ring_, &cqe);
      if (wrc < 0) return Status::FromErrno(-wrc, "io_uring_wait_cqe");
      (cqe->user_data == 1 ? write_res : sync_res) = cqe->res;
      io_uring_cqe_seen(&ring_, cqe);
    }
    const char* what = datasync ? "io_uring fsync (DATASYNC)" : "io_uring fsync";
    if (write_res < 0) return Refused(-write_res, "io_uring write");
    if (static_cast<std::size_t>(write_res) != n) {
      return Status::Error(
          fmt::format("io_uring write: short write of {} of {} bytes; the "
                      "linked sync was cancelled",
                      write_res, n));
    }
    if (sync_res < 0) return Refused(-sync_res, what);
    return Status::Ok();
  }

  Status QueueWrite(int fd, const void* buf, std::size_t n, std::uint64_t offset,
                    std::uint64_t tag) override {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (sqe == nullptr) return Status::InvalidArgument("io_uring: the submission queue is full");
    io_uring_prep_write(sqe, fd, buf, static_cast<unsigned>(n), offset);
    sqe->user_data = tag;
    return Status::Ok();
  }

  Result<RingCompletion> SubmitAndWait() override {
    int rc = io_uring_submit_and_wait(&ring_, 1);
    ++submissions_;
    if (rc < 0) return Status::FromErrno(-rc, "io_uring_enter");
    io_uring_cqe* cqe = nullptr;
    int wrc = io_uring_wait_cqe(&ring_, &cqe);
    if (wrc < 0) return Status::FromErrno(-wrc, "io_uring_wait_cqe");
    RingCompletion done{cqe->user_data, cqe->res};
    io_uring_cqe_seen(&ring_, cqe);
    return done;
  }

  std::uint64_t submissions() const override { return submissions_; }

 private:
  // An operation the kernel or the filesystem does not offer is Unsupported, not an error.
  static Status Refused(int err, const char* what) {
    if (err == EOPNOTSUPP || err == EINVAL || err == ENOSYS) {
      return Status::Unsupported(fmt::format("{} refused: {}", what, ErrnoName(err)));
    }
    return Status::FromErrno(err, what);
  }

  io_uring ring_{};
  bool initialised_ = false;
  std::uint64_t submissions_ = 0;
};

}  // namespace

Result<std::unique_ptr<IoRing>> MakeLinuxRing(unsigned entries) {
  auto ring = std::make_unique<LinuxIoRing>();
  Status s = ring->Init(entries);
  if (!s.ok()) return s;
  std::unique_ptr<IoRing> out = std::move(ring);
  return out;
}

}  // namespace durprobe::platform
