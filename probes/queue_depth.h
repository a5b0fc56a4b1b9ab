// Serial versus concurrent: random writes with O_DIRECT and no sync, many in flight (the figure a
// cloud spec sheet quotes as IOPS), to set beside serial synced writes (the figure a database
// sees). Through io_uring where the ring is allowed, else one thread per write in flight.
// Never prints.
#pragma once

#include <cstdint>
#include <string>

#include "platform/platform.h"
#include "probes/probe_result.h"
#include "probes/statistics.h"

namespace durprobe::probes {

inline constexpr std::uint32_t kSpecSheetQueueDepth = 32;

struct QueueDepthResult {
  std::uint32_t queue_depth = kSpecSheetQueueDepth;
  std::uint64_t write_size = 4096;
  std::string engine;  // "io_uring", or "threads" where io_uring is refused
  Outcome outcome = Outcome::kOk;
  std::string reason;
  std::uint64_t ops = 0;  // completed writes
  double seconds = 0.0;
  double ops_per_sec = 0.0;
  LatencySummary latency;  // each write, queued to completed
};

// depth random write_size writes in flight over a file_size file in dir for duration_ns; the
// file is removed after. Unsupported with the reason where the filesystem refuses O_DIRECT.
QueueDepthResult RunQueueDepth(platform::Platform& platform, const std::string& dir,
                               std::uint32_t depth, std::uint64_t write_size,
                               std::uint64_t file_size, std::uint64_t duration_ns);

}  // namespace durprobe::probes
