// `durprobe faults PATH...`: what the filesystem under PATH (or each --fs) does when a block
// write fails, measured on the crash device: what fsync and fdatasync return, and return when
// retried, what the page holds after, whether the filesystem stays usable, and what SQLite's
// COMMIT does on a failing sync (docs/fsync-errors.md).
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"
#include "run/requests.h"

namespace durprobe::cli {

struct FaultsCliOptions {
  std::vector<std::string> paths{"."};
  run::FaultsRequest request;  // the options, as typed
  bool no_sqlite = false;      // --no-sqlite: request.sqlite off
  CommonOptions common;
};

Subcommand SetupFaults(CLI::App& app);
int RunFaults(const FaultsCliOptions& options);

}  // namespace durprobe::cli
