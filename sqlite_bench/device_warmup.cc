#include "sqlite_bench/device_warmup.h"

#include <vector>

#include "platform/interrupt.h"

namespace durprobe::sqlite_bench {
namespace {

constexpr std::size_t kBlock = 4096;

Status InterruptedStatus() {
  int sig = platform::InterruptSignal();
  return sig ? Status::Interrupted(sig) : Status::Ok();
}

// The sync loop on an open file; counts into out.
Status SyncLoop(platform::Platform& p, int fd, std::uint64_t ns, DeviceWarmup& out) {
  std::vector<char> block(kBlock, '\x5a');
  const std::uint64_t start = p.NowNanos();
  while (out.syncs < kDeviceWarmupMinSyncs || p.NowNanos() - start < ns) {
    if (Status s = InterruptedStatus(); !s.ok()) return s;
    block[out.syncs % kBlock] ^= 1;  // every write carries new bytes
    if (Status s = p.PWrite(fd, block.data(), block.size(), 0); !s.ok()) return s;
    if (Status s = p.Sync(fd, platform::SyncCall::kFdatasync); !s.ok()) return s;
    ++out.syncs;
  }
  return Status::Ok();
}

}  // namespace

Result<DeviceWarmup> WarmUpDevice(platform::Platform& p, const std::string& dir, std::uint64_t ns) {
  DeviceWarmup out;
  const std::uint64_t start = p.NowNanos();
  const std::string path = dir + "/" + kDeviceWarmupFile;
  Result<platform::FileHandle> file =
      p.Open(path, platform::OpenFlags{.create = true, .truncate = true});
  if (!file.ok()) return file.status();
  Status s = SyncLoop(p, file->get(), ns, out);
  Status closed = file->Close();
  Status removed = p.Unlink(path);
  if (s.ok()) s = closed;
  if (s.ok()) s = removed;
  if (!s.ok()) return s;
  out.ns = p.NowNanos() - start;
  return out;
}

}  // namespace durprobe::sqlite_bench
