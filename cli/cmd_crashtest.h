// `durprobe crashtest PATH...`: crashsim's commit workload on a real filesystem made on the crash
// device (the path's own, or --fs), then the disk as a power cut could leave it at each flush
// and with what the device's cache still held, each mounted and checked with plain SQLite;
// crashsim runs the same configurations beside it for the comparison (docs/crashtest.md).
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"
#include "run/requests.h"

namespace durprobe::cli {

struct CrashtestCliOptions {
  std::vector<std::string> paths{"."};
  run::CrashtestRequest request;  // the options, as typed
  CommonOptions common;
};

Subcommand SetupCrashtest(CLI::App& app);
int RunCrashtest(const CrashtestCliOptions& options);

}  // namespace durprobe::cli
