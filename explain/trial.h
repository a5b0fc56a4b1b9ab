// What `compare --try` measured: the leading cause's test (explain/causes.h, Trial),
// run on the spot, and its effect in one line. Pure: the CLI runs the measurement.
#pragma once

#include <string>
#include <vector>

#include "explain/causes.h"
#include "model/report.h"

namespace durprobe::report {

struct TrialResult {
  std::string cause;    // the cause it tests ("btrfs_cow")
  std::string command;  // the command it stands for
  std::vector<Target> targets;
  std::string effect;  // one line: the measured effect
};

// The effect of a trial from what it measured: the second path's per-sync, per-op and metadata
// ratios against the first (compare_paths, nocow_dir), or WAL/FULL's commit rate against
// DELETE/FULL's (sqlite_wal).
std::string TrialEffect(const Trial& trial, const std::vector<Target>& measured);

}  // namespace durprobe::report
