// An io_uring submission queue (Linux, through liburing), for the sync paths that go through it:
// IORING_OP_FSYNC with or without IORING_FSYNC_DATASYNC, a write linked to its fsync in one
// submission, and a queue of writes kept in flight (the queue-depth probe). Other OSes and builds
// without liburing have none: Platform::MakeRing says Unsupported with the reason.
#pragma once

#include <cstddef>
#include <cstdint>

#include "platform/status.h"

namespace durprobe::platform {

// One completed operation: the tag it was queued with and its result (bytes, 0, or -errno).
struct RingCompletion {
  std::uint64_t tag = 0;
  std::int32_t result = 0;
};

class IoRing {
 public:
  virtual ~IoRing() = default;
  // Writes n bytes at offset and syncs the file in one submission (one io_uring_enter): the
  // write is linked to an IORING_OP_FSYNC (IORING_FSYNC_DATASYNC when datasync), so the sync
  // starts once the write completed, and waits for both. A short write, a failed write (the sync
  // is then cancelled) or a failed sync is the error, once, never retried. A sync the kernel or
  // the filesystem refuses (EOPNOTSUPP, EINVAL) is Unsupported with the reason.
  virtual Status WriteThenSync(int fd, const void* buf, std::size_t n, std::uint64_t offset,
                               bool datasync) = 0;
  // Queues one write (not yet submitted); InvalidArgument when the queue is full.
  virtual Status QueueWrite(int fd, const void* buf, std::size_t n, std::uint64_t offset,
                            std::uint64_t tag) = 0;
  // Submits what is queued (one io_uring_enter) and waits for one completion.
  virtual Result<RingCompletion> SubmitAndWait() = 0;
  // io_uring_enter calls made so far: how many submissions the probe cost.
  virtual std::uint64_t submissions() const = 0;
};

}  // namespace durprobe::platform
