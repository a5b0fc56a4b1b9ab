#include "probes/queue_depth.h"

#include <fmt/format.h>

#include <atomic>
#include <cerrno>
#include <thread>
#include <vector>

#include "platform/aligned_buffer.h"
#include "platform/interrupt.h"
#include "platform/thread.h"
#include "probes/probe_ops.h"

namespace durprobe::probes {
namespace {

// Block-aligned random offsets within a file (xorshift: no layer sees a sequential stream).
class RandomBlocks {
 public:
  RandomBlocks(std::uint64_t seed, std::uint64_t blocks) : x_(seed | 1), blocks_(blocks) {}
  std::uint64_t Next(std::uint64_t block_size) {
    x_ ^= x_ << 13;
    x_ ^= x_ >> 7;
    x_ ^= x_ << 17;
    return (x_ % blocks_) * block_size;
  }

 private:
  std::uint64_t x_;
  std::uint64_t blocks_;
};

Status DirectRefused(const Status& s) {
  if (s.error_number() == EINVAL) {
    return Status::Unsupported("the filesystem refuses O_DIRECT (EINVAL)");
  }
  return s;
}

// Keeps depth writes in flight on one ring: each completion is replaced by a new write.
Status RingWrites(platform::IoRing& ring, platform::Platform& p, int fd, const std::byte* buf,
                  QueueDepthResult& r, std::uint64_t file_size, std::uint64_t duration_ns,
                  Histogram& h) {
  RandomBlocks offsets(0x9E3779B97F4A7C15ull, file_size / r.write_size);
  std::vector<std::uint64_t> queued_at(r.queue_depth);
  const std::uint64_t start = p.NowNanos();
  for (std::uint32_t i = 0; i < r.queue_depth; ++i) {
    queued_at[i] = p.NowNanos();
    Status s = ring.QueueWrite(fd, buf, r.write_size, offsets.Next(r.write_size), i);
    if (!s.ok()) return s;
  }
  std::uint32_t in_flight = r.queue_depth;
  bool stopping = false;
  while (in_flight > 0) {
    Result<platform::RingCompletion> done = ring.SubmitAndWait();
    if (!done.ok()) return done.status();
    --in_flight;
    const std::uint64_t now = p.NowNanos();
    if (done->result < 0) return DirectRefused(Status::FromErrno(-done->result, "io_uring write"));
    if (!stopping) {
      h.Record(now - queued_at[done->tag]);
      ++r.ops;
    }
    stopping = stopping || now - start >= duration_ns || platform::InterruptSignal() != 0;
    if (!stopping) {
      queued_at[done->tag] = now;
      Status s = ring.QueueWrite(fd, buf, r.write_size, offsets.Next(r.write_size), done->tag);
      if (!s.ok()) return s;
      ++in_flight;
    }
  }
  r.seconds = static_cast<double>(p.NowNanos() - start) / 1e9;
  return Status::Ok();
}

// The same with one thread per write in flight, where io_uring is refused.
Status ThreadWrites(platform::Platform& p, int fd, const std::byte* buf, QueueDepthResult& r,
                    std::uint64_t file_size, std::uint64_t duration_ns, Histogram& merged) {
  std::vector<Histogram> hs(r.queue_depth);
  std::vector<Status> st(r.queue_depth);
  std::vector<std::thread> threads;
  const std::uint64_t start = p.NowNanos();
  for (std::uint32_t i = 0; i < r.queue_depth; ++i) {
    Result<std::thread> t = platform::StartThread([&, i] {
      RandomBlocks offsets(0x9E3779B97F4A7C15ull + i, file_size / r.write_size);
      std::uint64_t t0 = p.NowNanos();
      while (t0 - start < duration_ns && platform::InterruptSignal() == 0) {
        st[i] = p.PWrite(fd, buf, r.write_size, offsets.Next(r.write_size));
        if (!st[i].ok()) return;
        std::uint64_t t1 = p.NowNanos();
        hs[i].Record(t1 - t0);
        t0 = t1;
      }
    });
    if (!t.ok()) {
      st[i] = t.status();
      break;
    }
    threads.push_back(std::move(*t));
  }
  for (std::thread& t : threads) t.join();
  r.seconds = static_cast<double>(p.NowNanos() - start) / 1e9;
  for (std::uint32_t i = 0; i < r.queue_depth; ++i) {
    merged.Merge(hs[i]);
    if (!st[i].ok()) return DirectRefused(st[i]);
  }
  r.ops = merged.count();
  return Status::Ok();
}

}  // namespace

QueueDepthResult RunQueueDepth(platform::Platform& platform, const std::string& dir,
                               std::uint32_t depth, std::uint64_t write_size,
                               std::uint64_t file_size, std::uint64_t duration_ns) {
  QueueDepthResult r;
  r.queue_depth = depth;
  r.write_size = write_size;
  const std::string path = dir + "/queue_depth.dat";
  platform::AlignedBuffer buf(write_size, 4096);
  Status s = buf.data() == nullptr ? Status::Error("could not allocate the write buffer")
             : depth == 0 || write_size % 512 != 0 || file_size < write_size
                 ? Status::InvalidArgument(fmt::format(
                       "queue depth {} with {}-byte writes on a {}-byte file cannot run", depth,
                       write_size, file_size))
                 : Preallocate(platform, path, file_size);
  Histogram h;
  if (s.ok()) {
    FillPattern(buf.data(), buf.size());
    Result<platform::FileHandle> fd = platform.Open(path, platform::OpenFlags{.direct = true});
    if (!fd.ok()) {
      s = DirectRefused(fd.status());
    } else {
      Result<std::unique_ptr<platform::IoRing>> ring = platform.MakeRing(depth);
      r.engine = ring.ok() ? "io_uring" : "threads";
      s = ring.ok()
              ? RingWrites(**ring, platform, fd->get(), buf.data(), r, file_size, duration_ns, h)
              : ThreadWrites(platform, fd->get(), buf.data(), r, file_size, duration_ns, h);
      Status c = fd->Close();
      if (s.ok()) s = c;
    }
  }
  (void)platform.Unlink(path);
  if (s.ok() && platform::InterruptSignal() != 0)
    s = Status::Interrupted(platform::InterruptSignal());
  r.latency = Summarize(h);
  r.ops_per_sec = r.seconds > 0 ? static_cast<double>(r.ops) / r.seconds : 0.0;
  if (!s.ok()) {
    r.outcome = OutcomeOf(s);
    r.reason = s.message();
  }
  return r;
}

}  // namespace durprobe::probes
