// A steady load on a directory while other probes measure: check's --background-load (etcd's
// co-located case, where another process's I/O shares the disk) and a preset's companion syncs
// (etcd's bbolt backend committing beside its WAL). The load runs on a thread through the
// platform seam, paced to the asked rates. Reads and writes use O_DIRECT where the filesystem
// allows it so each reaches the device, not the page cache; synced writes go through the page
// cache and then fdatasync, as bbolt's commits do. Never prints.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "platform/platform.h"

namespace durprobe::probes {

struct LoadRates {
  double reads_per_sec = 0.0;   // 4 KiB reads
  double writes_per_sec = 0.0;  // 4 KiB writes
  // sync_bytes written at the next offset of a file of its own, then fdatasync, syncs_per_sec
  // times a second (a bbolt commit: its dirty pages, then the sync).
  double syncs_per_sec = 0.0;
  std::uint64_t sync_bytes = 0;
};

struct LoadOutcome {
  LoadRates asked;
  LoadRates achieved;  // operations done / seconds the load ran
  double seconds = 0.0;
  bool direct = false;  // O_DIRECT was accepted
  Status status;        // the first failure (the load stops there)
};

class BackgroundLoad {
 public:
  // Creates the files the rates need in dir (64 MiB for reads and writes, 8 MiB for synced
  // writes) and starts the thread. The files are removed by Stop.
  static Result<std::unique_ptr<BackgroundLoad>> Start(platform::Platform& platform,
                                                       const std::string& dir, LoadRates rates);
  // What Start writes for these rates, so free space can be checked before it does.
  static std::uint64_t FileBytes(const LoadRates& rates);
  ~BackgroundLoad();  // stops the load if Stop was not called
  BackgroundLoad(const BackgroundLoad&) = delete;
  BackgroundLoad& operator=(const BackgroundLoad&) = delete;

  // Stops the thread, closes and removes the file; what the load achieved.
  LoadOutcome Stop();

 private:
  BackgroundLoad(platform::Platform& platform, std::string file, platform::FileHandle fd,
                 bool direct, std::string sync_file, platform::FileHandle sync_fd, LoadRates rates);
  void Run();

  platform::Platform& platform_;
  std::string file_;  // empty when no reads or writes are asked
  platform::FileHandle fd_;
  std::string sync_file_;  // empty when no synced writes are asked
  platform::FileHandle sync_fd_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  LoadOutcome outcome_;
  bool stopped_ = false;
};

}  // namespace durprobe::probes
