// Concurrent syncers: N writers making writes durable at once, the way PostgreSQL's backends
// commit side by side and several databases share one disk. Each writer runs the ordinary timed
// loop on its own operation (probes/probe_ops.h), all released together once every writer is set
// up: threads each on its own file, processes each on their own file, or threads on one shared
// file. Never prints.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "platform/platform.h"
#include "probes/probe_result.h"
#include "probes/probe_spec.h"
#include "probes/timed_loop.h"

namespace durprobe::probes {

enum class WriterMode {
  kThreads,     // N threads, each on its own file
  kProcesses,   // N processes, each on its own file (PostgreSQL's backends)
  kSharedFile,  // N threads on one file, each on its own region (one WAL, many committers)
};
// The last enumerator, up to which NameOf's table is counted: one added after it moves this.
inline constexpr WriterMode kLastWriterMode = WriterMode::kSharedFile;
std::string_view NameOf(WriterMode m);
const std::map<std::string, WriterMode>& WriterModeNames();

inline constexpr std::uint32_t kMaxWriters = 64;
// The writer counts run when none are given: 1, 2, 4, 8, 16.
std::vector<std::uint32_t> DefaultWriterCounts();
// Every mode, in the order they run and print.
std::vector<WriterMode> AllWriterModes();

struct ConcurrencySpec {
  std::uint32_t writers = 1;
  WriterMode mode = WriterMode::kThreads;
  Primitive primitive = Primitive::kFdatasync;
  std::uint64_t write_size = 4096;
  bool operator==(const ConcurrencySpec&) const = default;
};

// Whether the primitive writes and syncs a file (not none, not dir_fsync) and writers is 1 ..
// kMaxWriters; InvalidArgument naming the problem otherwise.
Status Validate(const ConcurrencySpec& spec);

struct ConcurrencyResult {
  ConcurrencySpec spec;
  Outcome outcome = Outcome::kOk;
  std::string reason;            // why unsupported, or the error
  std::uint64_t ops = 0;         // synced operations of all writers, warm-up excluded
  std::uint64_t warmup_ops = 0;  // all writers' warm-up operations; not in the JSON
  double seconds = 0.0;          // the longest writer's timed phase
  LatencySummary latency;        // one operation (write + sync) of any writer
  // The sum over writers of each one's operations / its timed seconds.
  double aggregate_ops_per_sec = 0.0;
  // aggregate / the same mode and primitive's aggregate with one writer; 0 when that is missing.
  double scaling = 0.0;
  // Writers (threads, or processes other than this one) that ran and reported; not in the JSON.
  std::uint32_t writers_seen = 0;
  // What the devices completed while the writers ran (their warm-up in it: ops counts warm-up
  // and timed operations alike), with an idle slice after; no control (probes/flush_tally.h).
  FlushTally device_flushes;
};

// Runs spec's writers in scratch_dir: each one's timed loop runs rule.max_ns after its warm-up.
// rule.flush_counting is read around the writers together, never inside one writer's loop.
// Each writer's file is file_size bytes (the shared file file_size per writer), overwritten in
// place. A writer that cannot be set up or fails makes the result unsupported or an error with
// its reason; the others still stop and clean up.
ConcurrencyResult RunConcurrency(platform::Platform& platform, const std::string& scratch_dir,
                                 const ConcurrencySpec& spec, const StopRule& rule,
                                 std::uint64_t file_size);

// Sets each result's scaling against the one-writer result of the same mode and primitive.
void SetScaling(std::vector<ConcurrencyResult>& results);

}  // namespace durprobe::probes
