#include "probes/background_load.h"

#include <algorithm>
#include <vector>

#include "platform/thread.h"

namespace durprobe::probes {
namespace {

constexpr std::uint64_t kLoadFileSize = 64u << 20;
constexpr std::uint64_t kBlock = 4096;
constexpr std::uint64_t kBlocks = kLoadFileSize / kBlock;

}  // namespace

Result<std::unique_ptr<BackgroundLoad>> BackgroundLoad::Start(platform::Platform& platform,
                                                              const std::string& dir,
                                                              LoadRates rates) {
  std::string file = dir + "/background-load";
  Result<platform::FileHandle> fd = platform.Open(file, {.create = true, .exclusive = true});
  if (!fd.ok()) return fd.status();
  // Written once so reads find data, then reopened O_DIRECT where the filesystem accepts it.
  platform::AlignedBuffer fill(1u << 20, kBlock);
  std::fill(fill.data(), fill.data() + fill.size(), std::byte{0x5a});
  for (std::uint64_t off = 0; off < kLoadFileSize; off += fill.size()) {
    Status s = platform.PWrite(fd->get(), fill.data(), fill.size(), off);
    if (!s.ok()) {
      (void)fd->Close();
      (void)platform.Unlink(file);
      return s;
    }
  }
  Status synced = platform.Sync(fd->get(), platform::SyncCall::kFdatasync);
  (void)fd->Close();
  if (!synced.ok()) {
    (void)platform.Unlink(file);
    return synced;
  }
  bool direct = true;
  Result<platform::FileHandle> load_fd = platform.Open(file, {.direct = true});
  if (!load_fd.ok()) {
    direct = false;
    load_fd = platform.Open(file, {});
  }
  if (!load_fd.ok()) {
    (void)platform.Unlink(file);
    return load_fd.status();
  }
  return std::unique_ptr<BackgroundLoad>(
      new BackgroundLoad(platform, std::move(file), std::move(*load_fd), direct, rates));
}

BackgroundLoad::BackgroundLoad(platform::Platform& platform, std::string file,
                               platform::FileHandle fd, bool direct, LoadRates rates)
    : platform_(platform), file_(std::move(file)), fd_(std::move(fd)) {
  outcome_.asked = rates;
  outcome_.direct = direct;
  // A thread the OS refuses is the load's failure, seen by Stop's caller like any other.
  Result<std::thread> t = platform::StartThread([this] { Run(); });
  if (t.ok()) {
    thread_ = std::move(*t);
  } else {
    outcome_.status = t.status();
  }
}

BackgroundLoad::~BackgroundLoad() { (void)Stop(); }

// Paced by schedule, not by sleeping a fixed gap: operation k of a kind is due at k / rate
// seconds after the start, so a slow operation is caught up on rather than lowering the rate.
void BackgroundLoad::Run() {
  platform::AlignedBuffer buf(kBlock, kBlock);
  std::fill(buf.data(), buf.data() + buf.size(), std::byte{0xa5});
  const std::uint64_t start = platform_.NowNanos();
  std::uint64_t reads = 0, writes = 0, block = 0;
  auto due = [start](std::uint64_t done, double rate) {
    return rate <= 0 ? UINT64_MAX
                     : start + static_cast<std::uint64_t>(static_cast<double>(done) / rate * 1e9);
  };
  while (!stop_.load(std::memory_order_relaxed)) {
    std::uint64_t now = platform_.NowNanos();
    std::uint64_t next_read = due(reads, outcome_.asked.reads_per_sec);
    std::uint64_t next_write = due(writes, outcome_.asked.writes_per_sec);
    std::uint64_t next = std::min(next_read, next_write);
    if (next == UINT64_MAX) break;
    if (next > now) {
      platform_.SleepNanos(std::min<std::uint64_t>(next - now, 10'000'000));
      continue;
    }
    // A multiplicative step spreads the blocks over the file without a random number source.
    block = (block * 6364136223846793005ull + 1442695040888963407ull) % kBlocks;
    Status s;
    if (next_read <= next_write) {
      Result<std::size_t> n = platform_.PRead(fd_.get(), buf.data(), kBlock, block * kBlock);
      s = n.status();
      ++reads;
    } else {
      s = platform_.PWrite(fd_.get(), buf.data(), kBlock, block * kBlock);
      ++writes;
    }
    if (!s.ok()) {
      outcome_.status = s;
      break;
    }
  }
  outcome_.seconds = static_cast<double>(platform_.NowNanos() - start) / 1e9;
  if (outcome_.seconds > 0) {
    outcome_.achieved.reads_per_sec = static_cast<double>(reads) / outcome_.seconds;
    outcome_.achieved.writes_per_sec = static_cast<double>(writes) / outcome_.seconds;
  }
}

LoadOutcome BackgroundLoad::Stop() {
  if (stopped_) return outcome_;
  stopped_ = true;
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  Status closed = fd_.Close();
  Status removed = platform_.Unlink(file_);
  if (outcome_.status.ok()) outcome_.status = closed.ok() ? removed : closed;
  return outcome_;
}

}  // namespace durprobe::probes
