// A steady read and write load on a directory while other probes measure (check's
// --background-load): etcd's co-located case, where another process's I/O shares the disk. The
// load runs on a thread through the platform seam, paced to the asked rates, with O_DIRECT where
// the filesystem allows it so each read and write reaches the device, not the page cache.
// Never prints.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include "platform/platform.h"

namespace durprobe::probes {

struct LoadRates {
  double reads_per_sec = 0.0;
  double writes_per_sec = 0.0;
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
  // Creates a 64 MiB file in dir and starts the thread. The file is removed by Stop.
  static Result<std::unique_ptr<BackgroundLoad>> Start(platform::Platform& platform,
                                                       const std::string& dir, LoadRates rates);
  ~BackgroundLoad();  // stops the load if Stop was not called
  BackgroundLoad(const BackgroundLoad&) = delete;
  BackgroundLoad& operator=(const BackgroundLoad&) = delete;

  // Stops the thread, closes and removes the file; what the load achieved.
  LoadOutcome Stop();

 private:
  BackgroundLoad(platform::Platform& platform, std::string file, platform::FileHandle fd,
                 bool direct, LoadRates rates);
  void Run();

  platform::Platform& platform_;
  std::string file_;
  platform::FileHandle fd_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  LoadOutcome outcome_;
  bool stopped_ = false;
};

}  // namespace durprobe::probes
