#include "probes/background_load.h"

#include <algorithm>
#include <vector>

#include "platform/thread.h"

namespace durprobe::probes {
namespace {

constexpr std::uint64_t kLoadFileSize = 64u << 20;
constexpr std::uint64_t kBlock = 4096;
constexpr std::uint64_t kBlocks = kLoadFileSize / kBlock;
constexpr std::uint64_t kSyncFileSize = 8u << 20;

// Writes size bytes of fill into a new file and syncs it, so reads find data and synced writes
// overwrite allocated blocks (bbolt rewrites pages of a file that exists).
Status WriteLoadFile(platform::Platform& platform, const std::string& file, std::uint64_t size) {
  Result<platform::FileHandle> fd = platform.Open(file, {.create = true, .exclusive = true});
  if (!fd.ok()) return fd.status();
  platform::AlignedBuffer fill(1u << 20, kBlock);
  std::fill(fill.data(), fill.data() + fill.size(), std::byte{0x5a});
  Status s;
  for (std::uint64_t off = 0; s.ok() && off < size; off += fill.size()) {
    s = platform.PWrite(fd->get(), fill.data(), std::min<std::uint64_t>(fill.size(), size - off),
                        off);
  }
  if (s.ok()) s = platform.Sync(fd->get(), platform::SyncCall::kFdatasync);
  Status closed = fd->Close();
  if (s.ok()) s = closed;
  if (!s.ok()) (void)platform.Unlink(file);
  return s;
}

}  // namespace

std::uint64_t BackgroundLoad::FileBytes(const LoadRates& rates) {
  std::uint64_t bytes = 0;
  if (rates.reads_per_sec > 0 || rates.writes_per_sec > 0) bytes += kLoadFileSize;
  if (rates.syncs_per_sec > 0 && rates.sync_bytes > 0) bytes += kSyncFileSize;
  return bytes;
}

Result<std::unique_ptr<BackgroundLoad>> BackgroundLoad::Start(platform::Platform& platform,
                                                              const std::string& dir,
                                                              LoadRates rates) {
  std::string file, sync_file;
  platform::FileHandle load_fd, sync_fd;
  bool direct = false;
  auto fail = [&](const Status& s) {
    (void)load_fd.Close();
    if (!file.empty()) (void)platform.Unlink(file);
    return s;
  };
  if (rates.reads_per_sec > 0 || rates.writes_per_sec > 0) {
    file = dir + "/background-load";
    if (Status s = WriteLoadFile(platform, file, kLoadFileSize); !s.ok()) return s;
    // Reopened O_DIRECT where the filesystem accepts it.
    direct = true;
    Result<platform::FileHandle> fd = platform.Open(file, {.direct = true});
    if (!fd.ok()) {
      direct = false;
      fd = platform.Open(file, {});
    }
    if (!fd.ok()) return fail(fd.status());
    load_fd = std::move(*fd);
  }
  if (rates.syncs_per_sec > 0 && rates.sync_bytes > 0) {
    if (rates.sync_bytes > kSyncFileSize) {
      return fail(Status::OutOfRange("a synced write of the background load is over 8 MiB"));
    }
    std::string name = dir + "/background-syncs";
    if (Status s = WriteLoadFile(platform, name, kSyncFileSize); !s.ok()) return fail(s);
    sync_file = name;
    Result<platform::FileHandle> fd = platform.Open(sync_file, {});
    if (!fd.ok()) {
      (void)platform.Unlink(sync_file);
      return fail(fd.status());
    }
    sync_fd = std::move(*fd);
  }
  return std::unique_ptr<BackgroundLoad>(
      new BackgroundLoad(platform, std::move(file), std::move(load_fd), direct,
                         std::move(sync_file), std::move(sync_fd), rates));
}

BackgroundLoad::BackgroundLoad(platform::Platform& platform, std::string file,
                               platform::FileHandle fd, bool direct, std::string sync_file,
                               platform::FileHandle sync_fd, LoadRates rates)
    : platform_(platform),
      file_(std::move(file)),
      fd_(std::move(fd)),
      sync_file_(std::move(sync_file)),
      sync_fd_(std::move(sync_fd)) {
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
  const LoadRates& asked = outcome_.asked;
  platform::AlignedBuffer buf(kBlock, kBlock);
  std::fill(buf.data(), buf.data() + buf.size(), std::byte{0xa5});
  std::vector<std::byte> sync_buf(sync_file_.empty() ? 0 : asked.sync_bytes, std::byte{0x3c});
  const std::uint64_t start = platform_.NowNanos();
  std::uint64_t reads = 0, writes = 0, syncs = 0, block = 0, sync_offset = 0;
  auto due = [start](std::uint64_t done, double rate) {
    return rate <= 0 ? UINT64_MAX
                     : start + static_cast<std::uint64_t>(static_cast<double>(done) / rate * 1e9);
  };
  while (!stop_.load(std::memory_order_relaxed)) {
    std::uint64_t now = platform_.NowNanos();
    std::uint64_t next_read = file_.empty() ? UINT64_MAX : due(reads, asked.reads_per_sec);
    std::uint64_t next_write = file_.empty() ? UINT64_MAX : due(writes, asked.writes_per_sec);
    std::uint64_t next_sync = sync_file_.empty() ? UINT64_MAX : due(syncs, asked.syncs_per_sec);
    std::uint64_t next = std::min({next_read, next_write, next_sync});
    if (next == UINT64_MAX) break;
    if (next > now) {
      platform_.SleepNanos(std::min<std::uint64_t>(next - now, 10'000'000));
      continue;
    }
    Status s;
    if (next == next_sync) {
      // The next pages of the file, wrapping at its end, then the sync that commits them.
      if (sync_offset + sync_buf.size() > kSyncFileSize) sync_offset = 0;
      s = platform_.PWrite(sync_fd_.get(), sync_buf.data(), sync_buf.size(), sync_offset);
      if (s.ok()) s = platform_.Sync(sync_fd_.get(), platform::SyncCall::kFdatasync);
      sync_offset += sync_buf.size();
      ++syncs;
    } else {
      // A multiplicative step spreads the blocks over the file without a random number source.
      block = (block * 6364136223846793005ull + 1442695040888963407ull) % kBlocks;
      if (next_read <= next_write) {
        Result<std::size_t> n = platform_.PRead(fd_.get(), buf.data(), kBlock, block * kBlock);
        s = n.status();
        ++reads;
      } else {
        s = platform_.PWrite(fd_.get(), buf.data(), kBlock, block * kBlock);
        ++writes;
      }
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
    outcome_.achieved.syncs_per_sec = static_cast<double>(syncs) / outcome_.seconds;
  }
  outcome_.achieved.sync_bytes = asked.sync_bytes;
}

LoadOutcome BackgroundLoad::Stop() {
  if (stopped_) return outcome_;
  stopped_ = true;
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  for (auto [fd, file] : {std::pair{&fd_, &file_}, std::pair{&sync_fd_, &sync_file_}}) {
    if (file->empty()) continue;
    Status closed = fd->Close();
    Status removed = platform_.Unlink(*file);
    if (outcome_.status.ok()) outcome_.status = closed.ok() ? removed : closed;
  }
  return outcome_;
}

}  // namespace durprobe::probes
