#include "cli/cmd_inspect.h"

#include <memory>

#include "cli/evidence_option.h"
#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "run/command_plans.h"
#include "run/evidence_file.h"
#include "run/target_paths.h"

namespace durprobe::cli {

Subcommand SetupInspect(CLI::App& app) {
  auto options = std::make_shared<InspectOptions>();
  CLI::App* sub = app.add_subcommand(
      "inspect", "What each PATH is: mount, filesystem, options, device, container, findings");
  sub->add_option("PATH", options->paths, "Directories to inspect")->required();
  AddEvidenceOption(*sub, options->evidence);
  AddOutputOptions(*sub, options->out, output::Document::kReport);
  AddStandardFlags(*sub, options->out);
  return {sub, [options] { return RunInspect(*options); }};
}

int RunInspect(const InspectOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = run::ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  run::Plan plan = run::MakeInspectPlan(*paths);
  if (Status s = run::LoadEvidence(platform, o.evidence, plan); !s.ok()) {
    return UsageError(s.message());
  }
  return ExecutePlan(platform, plan, o.out);
}

}  // namespace durprobe::cli
