#include "platform/fault_platform.h"

#include <fmt/format.h>

namespace durprobe::platform {

bool FaultPlatform::Trips(int err, int& after) {
  if (err == 0) return false;
  if (after > 0) {
    --after;
    return false;
  }
  return true;
}

Status FaultPlatform::SyncFault(const char* what) {
  ++sync_calls_;
  if (sync_latency_ns_ > 0) SleepNanos(sync_latency_ns_);
  if (late_latency_ns_ > 0 && sync_calls_ > late_after_) SleepNanos(late_latency_ns_);
  if (Trips(sync_err_, sync_after_)) return Status::FromErrno(sync_err_, what);
  return Status::Ok();
}

void FaultPlatform::SleepNanos(std::uint64_t ns) {
  if (fake_clock_) {
    now_ns_ += ns;
  } else {
    base_.SleepNanos(ns);
  }
}

Result<int> FaultPlatform::Open(const std::string& path, const OpenFlags& flags) {
  if (open_err_ != 0) return Status::FromErrno(open_err_, fmt::format("open {}", path));
  return base_.Open(path, flags);
}

Status FaultPlatform::PWrite(int fd, const void* buf, std::size_t n, std::uint64_t offset) {
  trace_ += 'w';
  if (Trips(write_err_, write_after_)) return Status::FromErrno(write_err_, "pwrite");
  return base_.PWrite(fd, buf, n, offset);
}

Status FaultPlatform::Sync(int fd, SyncCall call, std::uint64_t offset, std::uint64_t length) {
  trace_ += 's';
  Status real = base_.Sync(fd, call, offset, length);
  if (!real.ok()) return real;
  return SyncFault("sync");
}

Status FaultPlatform::SyncDirectory(const std::string& dir) {
  trace_ += 'd';
  Status real = base_.SyncDirectory(dir);
  if (!real.ok()) return real;
  return SyncFault("fsync directory");
}

}  // namespace durprobe::platform
