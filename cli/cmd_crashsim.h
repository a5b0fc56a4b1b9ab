// `durprobe crashsim PATH...`: what a power cut loses, per journal_mode x synchronous (x batch),
// simulated on the crash VFS and recovered with plain SQLite in a scratch directory on PATH.
// Also the crashsim options `sqlite --crashsim` shares.
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"
#include "model/report.h"
#include "run/requests.h"

namespace durprobe::cli {

// The crashsim request (run/requests.h), with the paths and the output options.
struct CrashsimCliOptions : run::CrashsimRequest {
  std::vector<std::string> paths{"."};
  CommonOptions common;
};

// Adds --trials, --seed, --commits, --device and --no-psow.
void AddCrashsimOptions(CLI::App& app, run::CrashsimRequest& options);
// Exit status for a report whose crashsim rows ran: 1 when a configuration failed to run.
int FailedCrashsim(const model::Report& report);

Subcommand SetupCrashsim(CLI::App& app);
int RunCrashsim(const CrashsimCliOptions& options);

}  // namespace durprobe::cli
