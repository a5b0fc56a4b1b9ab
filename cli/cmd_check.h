// `durprobe check PATH...`: the provisioning gate. Rules from a preset, a policy file and rule
// flags; a plan that measures only what they read; exit 0 all passed, 1 a rule failed, 2 could
// not measure.
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"
#include "gate/rules.h"
#include "platform/platform.h"
#include "run/requests.h"

namespace durprobe::cli {

// The check request (run/requests.h: --background-load, --writers), with the paths, the rules
// and the common options (with --junit and --prometheus among the outputs).
struct CheckOptions : run::CheckRequest {
  std::vector<std::string> paths;
  std::string policy_file;
  std::vector<std::string> presets;
  std::vector<std::string> max_p99;  // LIMIT or PRIMITIVE:PATTERN:SIZE=LIMIT
  std::vector<std::string> max_p50;
  std::vector<std::string> min_commits;  // JOURNAL:SYNC>=RATE
  std::vector<std::string> fail_on;      // finding codes, or info/warn/fail
  std::vector<std::string> require;      // facts
  CommonOptions common;
  std::string evidence;  // --evidence: a power-cut test's evidence file
};

// The policy the options describe: presets, then the policy file, then the flags. Errors are
// one line (the file's name and line for a policy file).
Result<gate::Policy> MakePolicy(platform::Platform& platform, const CheckOptions& options);

// The exit status for a set of results: 1 when any rule failed, else 2 when any could not be
// evaluated, else 0 (a skipped rule does not fail the gate; it is shown).
int CheckExitCode(const std::vector<model::CheckResult>& checks);

Subcommand SetupCheck(CLI::App& app);
int RunCheck(const CheckOptions& options);

}  // namespace durprobe::cli
