// `durprobe crashsim PATH...`: what a power cut loses, per journal_mode x synchronous (x batch),
// simulated on the crash VFS and recovered with plain SQLite in a scratch directory on PATH.
// Also the crashsim options `sqlite --crashsim` shares.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"
#include "model/report.h"
#include "sqlite_bench/crashsim.h"

namespace durprobe::cli {

struct CrashsimCliOptions {
  std::vector<std::string> paths{"."};
  std::vector<std::string> journal_modes;  // lower-case; empty: delete, truncate, persist, wal
  std::vector<std::string> synchronous;    // empty: off, normal, full, extra
  std::vector<std::string> batches{"1"};
  std::uint32_t trials = 100;  // per configuration
  std::uint64_t seed = 1;
  std::uint32_t commits = 12;       // per trial
  std::vector<std::string> device;  // atomic_sectors, safe_append, sequential, ordered_metadata
  bool no_psow = false;             // tell SQLite the storage lacks powersafe overwrite
  CommonOptions common;
};

// Adds --trials, --seed, --commits, --device and --no-psow.
void AddCrashsimOptions(CLI::App& app, CrashsimCliOptions& options);
// The crashsim rows for a commit matrix: its journal x synchronous x batch, each once.
std::vector<sqlite_bench::CrashsimConfig> CrashsimConfigsFor(
    const std::vector<sqlite_bench::CommitConfig>& matrix);
// The crashsim plan for configs, with the options' trials, seed, workload and device.
sqlite_bench::CrashsimPlan MakeCrashsimPlan(const CrashsimCliOptions& options,
                                            std::vector<sqlite_bench::CrashsimConfig> configs);
// Exit status for a report whose crashsim rows ran: 1 when a configuration failed to run.
int FailedCrashsim(const report::Report& report);

Subcommand SetupCrashsim(CLI::App& app);
int RunCrashsim(const CrashsimCliOptions& options);

}  // namespace durprobe::cli
