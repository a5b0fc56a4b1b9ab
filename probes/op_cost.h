// Per-operation costs without any sync: the calls FUSE, virtiofs and 9p add a round trip to
// (write, read, open+close, stat) and the metadata calls (create, rename). `compare` uses them to
// tell a per-operation penalty from a per-sync one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "platform/platform.h"
#include "probes/probe_result.h"
#include "probes/timed_loop.h"

namespace durprobe::probes {

enum class FileOp { kWrite, kRead, kOpenClose, kStat, kCreate, kRename };
// The last enumerator, up to which NameOf's table is counted: one added after it moves this.
inline constexpr FileOp kLastFileOp = FileOp::kRename;

std::string_view NameOf(FileOp op);
const std::vector<FileOp>& AllFileOps();

struct OpCostResult {
  FileOp op = FileOp::kWrite;
  std::uint64_t size = 4096;  // bytes for write and read, 0 otherwise
  Outcome outcome = Outcome::kOk;
  std::string reason;
  std::uint64_t ops = 0;
  double seconds = 0.0;
  double ops_per_sec = 0.0;
  LatencySummary latency;
};

// One timed run of op in scratch_dir, as mergeable samples.
LoopOutcome SampleOpCost(platform::Platform& platform, const std::string& scratch_dir, FileOp op,
                         const StopRule& rule);
OpCostResult ToOpCostResult(FileOp op, const LoopOutcome& samples);

}  // namespace durprobe::probes
