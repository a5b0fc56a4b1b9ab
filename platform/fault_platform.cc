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

// Handles from base_ are re-owned by this wrapper, so they close through it like every other call.
Result<FileHandle> FaultPlatform::Open(const std::string& path, const OpenFlags& flags) {
  if (open_err_ != 0) return Status::FromErrno(open_err_, fmt::format("open {}", path));
  Result<FileHandle> file = base_.Open(path, flags);
  if (!file.ok()) return file.status();
  return FileHandle(*this, file->release());
}

Status FaultPlatform::Close(int fd) {
  ++close_calls_;
  Status real = base_.Close(fd);
  if (!real.ok()) return real;
  if (close_err_ != 0) return Status::FromErrno(close_err_, "close");
  return Status::Ok();
}

Result<Pipe> FaultPlatform::MakePipe() {
  Result<Pipe> pipe = base_.MakePipe();
  if (!pipe.ok()) return pipe.status();
  return Pipe{FileHandle(*this, pipe->read.release()), FileHandle(*this, pipe->write.release())};
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

Status FaultPlatform::CheckSharedMapping(const std::string& dir, const SharedMapping& mapping) {
  ++shm_calls_;
  if (!shm_fault_.ok()) return shm_fault_;
  SharedMapping tried = mapping;
  tried.touch_past_end = tried.touch_past_end || shm_past_end_;
  return base_.CheckSharedMapping(dir, tried);
}

}  // namespace durprobe::platform
