#include "cli/cmd_run.h"

#include <memory>

#include "cli/evidence_option.h"
#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "run/command_plans.h"
#include "run/evidence_file.h"
#include "run/target_paths.h"

namespace durprobe::cli {

Subcommand SetupRun(CLI::App& app) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* sub = app.add_subcommand("run", "Full report on each PATH (the default subcommand)");
  sub->add_option("PATH", options->probe.paths, "Directories to measure")->capture_default_str();
  AddProbeOptions(*sub, options->probe);
  AddSqliteMatrixOptions(*sub, options->sqlite);
  AddEvidenceOption(*sub, options->evidence);
  AddCommonOptions(*sub, options->probe.common,
                   "Short run: the same probes and SQLite matrix with a 5 s budget instead of 60 s",
                   "60s");
  return {sub, [options] { return RunRun(*options); }};
}

int RunRun(const RunOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = run::ResolveTargets(platform, o.probe.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<run::Plan> plan = run::MakeRunPlan(platform, *paths, o.probe, o.sqlite, o.probe.common);
  if (!plan.ok()) return UsageError(plan.status().message());
  if (Status s = run::LoadEvidence(platform, o.evidence, *plan); !s.ok()) {
    return UsageError(s.message());
  }
  return ExecutePlan(platform, *plan, o.probe.common.out, FailedConfigurations);
}

}  // namespace durprobe::cli
