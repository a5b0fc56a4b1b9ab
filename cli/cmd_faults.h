// `durprobe faults PATH...`: what the filesystem under PATH (or each --fs) does when a block
// write fails, measured on the crash device: what fsync and fdatasync return, and return when
// retried, what the page holds after, whether the filesystem stays usable, and what SQLite's
// COMMIT does on a failing sync (docs/fsync-errors.md).
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"

namespace durprobe::cli {

struct FaultsCliOptions {
  std::vector<std::string> paths{"."};
  std::vector<std::string> filesystems;  // TYPE or TYPE:OPTIONS; empty: the path's own
  std::string mount_options;             // --mount-options: for each --fs that names none
  bool no_sqlite = false;
  CommonOptions common;
};

Subcommand SetupFaults(CLI::App& app);
int RunFaults(const FaultsCliOptions& options);

}  // namespace durprobe::cli
