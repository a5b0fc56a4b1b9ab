// What `compare --try` measured: the leading cause's test (explain/causes.h, Trial),
// run on the spot, and its effect in one line. Pure: the CLI runs the measurement.
#pragma once

#include <string>
#include <vector>

#include "explain/causes.h"
#include "model/report.h"

namespace durprobe::explain {

struct TrialResult {
  std::string cause;    // the cause it tests ("btrfs_cow")
  std::string command;  // the command it stands for
  std::vector<model::Target> targets;
  std::string effect;  // one line: the measured effect
  // The leading cause, when it had no test at all (drift: the figures were not comparable) and
  // the next cause that has one was tried instead; empty otherwise.
  std::string instead_of;
};

// The cause compare --try tests among a verdict's (ranked) causes: the leading one, unless it has
// no test at all (drift: the figures moved with the disk, which says nothing of which layer
// differs); then the first after it that has a test to run, with instead_of set to the leading
// cause's key. nullptr when there are no causes.
const Cause* CauseToTry(const std::vector<Cause>& causes, std::string& instead_of);

// The effect of a trial from what it measured: the second path's per-sync, per-op and metadata
// ratios against the first (compare_paths, nocow_dir), or WAL/FULL's commit rate against
// DELETE/FULL's (sqlite_wal).
std::string TrialEffect(const Trial& trial, const std::vector<model::Target>& measured);

}  // namespace durprobe::explain
