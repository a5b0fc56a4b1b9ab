#include "tests/support/fault_platform.h"

#include <fmt/format.h>

#include <memory>
#include <utility>

namespace durprobe::platform {

bool FaultPlatform::Trips(int err, int& after) {
  if (err == 0) return false;
  if (after > 0) {
    --after;
    return false;
  }
  return true;
}

// Takes mu_ itself, and sleeps without it, so concurrent writers' syncs overlap as real ones do.
Status FaultPlatform::SyncFault(const char* what) {
  std::uint64_t sleep_ns = 0;
  bool trips = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++sync_calls_;
    sleep_ns = sync_latency_ns_;
    if (late_latency_ns_ > 0 && sync_calls_ > late_after_) sleep_ns += late_latency_ns_;
    if (ramp_every_ > 0) {
      sleep_ns += ramp_ns_ * static_cast<std::uint64_t>((sync_calls_ - ramp_from_) / ramp_every_);
    }
    trips = Trips(sync_err_, sync_after_);
  }
  if (sleep_ns > 0) SleepNanos(sleep_ns);
  if (trips) return Status::FromErrno(sync_err_, what);
  return Status::Ok();
}

void FaultPlatform::SleepNanos(std::uint64_t ns) {
  if (fake_clock_) {
    now_ns_ += ns;
  } else {
    target().SleepNanos(ns);
  }
}

void FaultPlatform::SpinNanos(std::uint64_t ns) {
  spun_ns_ += ns;
  if (fake_clock_) {
    now_ns_ += ns;
  } else {
    target().SpinNanos(ns);
  }
}

CpuQuota FaultPlatform::ReadCpuQuota() {
  if (cpu_quota_) return *cpu_quota_;
  if (!fake_clock_) return target().ReadCpuQuota();
  CpuQuota none;
  none.note = "no quota (the fake clock's default)";
  return none;
}

Result<CpuThrottleCount> FaultPlatform::ReadCpuThrottling(const CpuQuota& quota) {
  if (throttle_counts_.empty()) {
    if (cpu_quota_ || fake_clock_) return Status::Unsupported("no throttling counters set");
    return target().ReadCpuThrottling(quota);
  }
  std::size_t i = std::min<std::size_t>(throttle_reads_++, throttle_counts_.size() - 1);
  return throttle_counts_[i];
}

Result<std::unique_ptr<Platform::Partner>> FaultPlatform::StartPartner() {
  if (!fake_clock_) return target().StartPartner();
  class FakePartner final : public Partner {
   public:
    explicit FakePartner(FaultPlatform& p) : p_(p) {}
    Status RoundTrip(std::uint64_t side_ns) override {
      p_.now_ns_ += 2 * side_ns;  // this side's spin, then the partner's
      p_.spun_ns_ += 2 * side_ns;
      ++p_.round_trips_;
      return Status::Ok();
    }

   private:
    FaultPlatform& p_;
  };
  return std::unique_ptr<Partner>(std::make_unique<FakePartner>(*this));
}

// Handles from the target are re-owned by this wrapper, so they close through it like every
// other call.
Result<FileHandle> FaultPlatform::Open(const std::string& path, const OpenFlags& flags) {
  if (open_err_ != 0) return Status::FromErrno(open_err_, fmt::format("open {}", path));
  Result<FileHandle> file = target().Open(path, flags);
  if (!file.ok()) return file.status();
  return FileHandle(*this, file->release());
}

Status FaultPlatform::Close(int fd) {
  ++close_calls_;
  Status real = target().Close(fd);
  if (!real.ok()) return real;
  if (close_err_ != 0) return Status::FromErrno(close_err_, "close");
  return Status::Ok();
}

Result<Pipe> FaultPlatform::MakePipe() {
  Result<Pipe> pipe = target().MakePipe();
  if (!pipe.ok()) return pipe.status();
  return Pipe{FileHandle(*this, pipe->read.release()), FileHandle(*this, pipe->write.release())};
}

Status FaultPlatform::PWrite(int fd, const void* buf, std::size_t n, std::uint64_t offset) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    NoteDataCall('w');
    if (Trips(write_err_, write_after_)) return Status::FromErrno(write_err_, "pwrite");
  }
  return target().PWrite(fd, buf, n, offset);
}

Status FaultPlatform::Sync(int fd, SyncCall call, std::uint64_t offset, std::uint64_t length) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    NoteDataCall('s');
  }
  Status real = target().Sync(fd, call, offset, length);
  if (!real.ok()) return real;
  return SyncFault("sync");
}

Status FaultPlatform::SyncDirectory(const std::string& dir) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    trace_ += 'd';
  }
  Status real = target().SyncDirectory(dir);
  if (!real.ok()) return real;
  return SyncFault("fsync directory");
}

Status FaultPlatform::CheckSharedMapping(const std::string& dir, const SharedMapping& mapping) {
  ++shm_calls_;
  if (!shm_fault_.ok()) return shm_fault_;
  SharedMapping tried = mapping;
  tried.touch_past_end = tried.touch_past_end || shm_past_end_;
  return target().CheckSharedMapping(dir, tried);
}

void FaultPlatform::NoteDataCall(char kind) {
  trace_ += kind;
  threads_.insert(std::this_thread::get_id());
}

Status FaultPlatform::PWriteDsync(int fd, const void* buf, std::size_t n, std::uint64_t offset) {
  if (!refuse_modern_.empty()) return Status::Unsupported(refuse_modern_);
  {
    std::lock_guard<std::mutex> lock(mu_);
    NoteDataCall('W');
    if (Trips(write_err_, write_after_)) return Status::FromErrno(write_err_, "pwritev2");
  }
  Status real = target().PWriteDsync(fd, buf, n, offset);
  if (!real.ok()) return real;
  return SyncFault("pwritev2(RWF_DSYNC)");
}

namespace {

// Forwards to the real ring; write-then-sync goes through the FaultPlatform's counters.
class FaultRing final : public IoRing {
 public:
  FaultRing(FaultPlatform& owner, std::unique_ptr<IoRing> base)
      : owner_(owner), base_(std::move(base)) {}
  Status WriteThenSync(int fd, const void* buf, std::size_t n, std::uint64_t offset,
                       bool datasync) override {
    return owner_.RingWriteThenSync(*base_, fd, buf, n, offset, datasync);
  }
  Status QueueWrite(int fd, const void* buf, std::size_t n, std::uint64_t offset,
                    std::uint64_t tag) override {
    return base_->QueueWrite(fd, buf, n, offset, tag);
  }
  Result<RingCompletion> SubmitAndWait() override { return base_->SubmitAndWait(); }
  std::uint64_t submissions() const override { return base_->submissions(); }

 private:
  FaultPlatform& owner_;
  std::unique_ptr<IoRing> base_;
};

}  // namespace

Result<std::unique_ptr<IoRing>> FaultPlatform::MakeRing(unsigned entries) {
  if (!refuse_modern_.empty()) return Status::Unsupported(refuse_modern_);
  Result<std::unique_ptr<IoRing>> ring = target().MakeRing(entries);
  if (!ring.ok()) return ring.status();
  std::unique_ptr<IoRing> wrapped = std::make_unique<FaultRing>(*this, std::move(*ring));
  return wrapped;
}

Status FaultPlatform::RingWriteThenSync(IoRing& ring, int fd, const void* buf, std::size_t n,
                                        std::uint64_t offset, bool datasync) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    NoteDataCall('u');
    if (Trips(write_err_, write_after_)) return Status::FromErrno(write_err_, "io_uring write");
  }
  Status real = ring.WriteThenSync(fd, buf, n, offset, datasync);
  if (!real.ok()) return real;
  return SyncFault("io_uring fsync");
}

}  // namespace durprobe::platform
