// The plain data `durprobe crashtest` produces per journal_mode x synchronous x batch on the
// crash device: states checked, corrupt, acknowledged commits lost, and examples to rebuild.
// Reporters format it; nothing here knows SQLite's API (sqlite_bench/crashtest.h runs it).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "probes/probe_result.h"
#include "sqlite_bench/crashsim_result.h"

namespace durprobe::sqlite_bench {

// A state the table names, so it can be rebuilt: platform::DescribeState's words and what it
// showed ("lost 2 acknowledged commits", "mount failed: ...", "integrity_check: ...").
struct CrashtestExample {
  std::string state;
  std::string outcome;
  bool operator==(const CrashtestExample&) const = default;
};

// A cut at one flush with nothing of the cache kept (the disk as that flush left it): what the
// run had acknowledged by then and what the recovered database held. The states over the run.
struct CrashtestMoment {
  std::uint64_t flush = 0;         // the state's after_flush
  std::uint64_t acknowledged = 0;  // commits returned before the cut
  std::uint64_t present = 0;       // commits found after recovery (0 when corrupt)
  bool corrupt = false;
  bool operator==(const CrashtestMoment&) const = default;
};

struct CrashtestResult {
  CrashsimConfig config;
  probes::Outcome outcome = probes::Outcome::kOk;
  std::string reason;  // why not ok
  std::string fs;      // "ext4"
  std::string fs_options;
  std::string device;         // the cache mode: honest, ignores-flush, torn
  bool paths_own_fs = false;  // made like the path's filesystem (type and options), not --fs
  std::uint64_t seed = 0;
  std::uint64_t commits = 0;  // acknowledged by the workload
  std::uint64_t writes = 0;   // the device's log, from the workload's mount to its unmount
  std::uint64_t flushes = 0;
  std::string log;                  // LogDigest of the workload's record
  std::uint64_t workload_runs = 0;  // runs of the workload it took to log `log` (1 unless rebuilt)
  std::uint64_t states = 0;         // built, mounted and checked
  std::uint64_t distinct = 0;       // states whose writes differ
  std::uint64_t corrupt = 0;        // the mount failed, integrity_check failed, rows out of order
  std::uint64_t mount_failed = 0;   // of corrupt
  std::uint64_t lost_states = 0;    // states that lost an acknowledged commit (not corrupt)
  std::uint64_t lost_max = 0;       // the most acknowledged commits one state lost
  std::uint64_t ns = 0;             // the states' time: build, mount, check, unmount
  std::vector<CrashtestExample> examples;  // the first corrupt and losing states, a few each
  std::vector<CrashtestMoment> timeline;   // the states at a flush, in flush order
  // Set by the analysis where crashsim ran the same configuration: whether the two found the same
  // class (none lost, commits lost, corrupt).
  std::optional<bool> agrees_with_crashsim;
  bool operator==(const CrashtestResult&) const = default;
};

// Examples kept per kind (corrupt, lost) in a result.
inline constexpr std::size_t kCrashtestExamples = 3;

}  // namespace durprobe::sqlite_bench
