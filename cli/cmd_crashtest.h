// `durprobe crashtest PATH...`: crashsim's commit workload on a real filesystem made on the crash
// device (the path's own, or --fs), then the disk as a power cut could leave it at each flush
// and with what the device's cache still held, each mounted and checked with plain SQLite;
// crashsim runs the same configurations beside it for the comparison (docs/crashtest.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"
#include "platform/platform.h"
#include "sqlite_bench/crashtest.h"

namespace durprobe::cli {

struct CrashtestCliOptions {
  std::vector<std::string> paths{"."};
  std::vector<std::string> journal_modes;  // empty with synchronous empty: the default set
  std::vector<std::string> synchronous;
  std::vector<std::string> batches{"1"};
  std::size_t states = 200;  // per configuration
  std::uint64_t seed = 1;
  std::uint32_t commits = 30;
  std::string device = "honest";
  std::string fs;  // empty: the path's own
  std::string mount_options;
  std::string state;  // a reported state's words: rebuild and check only it
  std::string log;    // the log the state was reported on (its row's `log`)
  CommonOptions common;
};

// Whether the crash device can make each path's filesystem (the options' --fs, else the path's
// own): the first path it cannot, named, so the command is refused before anything runs.
Status CrashDeviceMakesEach(platform::Platform& platform, const std::vector<std::string>& paths,
                            const sqlite_bench::CrashtestOptions& options);

Subcommand SetupCrashtest(CLI::App& app);
int RunCrashtest(const CrashtestCliOptions& options);

}  // namespace durprobe::cli
