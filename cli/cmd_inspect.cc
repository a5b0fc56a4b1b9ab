#include "cli/cmd_inspect.h"

#include <memory>

#include "cli/cmd_probe.h"
#include "cli/plan.h"

namespace durprobe::cli {

Subcommand SetupInspect(CLI::App& app) {
  auto options = std::make_shared<InspectOptions>();
  CLI::App* sub = app.add_subcommand(
      "inspect", "What each PATH is: mount, filesystem, options, device, container, findings");
  sub->add_option("PATH", options->paths, "Directories to inspect")->required();
  AddCommonOptions(*sub, options->common);
  return {sub, [options] { return RunInspect(*options); }};
}

int RunInspect(const InspectOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Plan plan;
  plan.command = "inspect";
  plan.paths = *paths;
  plan.run_inspect = true;
  return ExecuteAndEmit(platform, plan, o.common);
}

}  // namespace durprobe::cli
