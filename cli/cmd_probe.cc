#include "cli/cmd_probe.h"

#include <memory>

#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "run/target_paths.h"
#include "cli/validators.h"
#include "probes/concurrency.h"
#include "probes/probe_spec.h"
#include "run/command_plans.h"

namespace durprobe::cli {

void AddProbeOptions(CLI::App& app, run::ProbeRequest& o) {
  AddListOption(app, "--primitives", o.primitives,
                "Sync primitives to measure, comma-separated (default: none, fsync, fdatasync, "
                "odsync, dir_fsync and the platform's own)")
      ->transform(OneOf(KeysOf(probes::PrimitiveNames()), "primitive"));
  AddListOption(app, "--patterns", o.patterns,
                "Write patterns, comma-separated (default: each primitive's own)")
      ->transform(OneOf(KeysOf(probes::PatternNames()), "pattern"));
  AddListOption(app, "--sizes", o.sizes,
                "Write sizes to sweep, e.g. 512,2300,4k,8k,64k (default 4k)")
      ->check(Size());
  app.add_option("--file-size", o.file_size,
                 "Probe file size: overwrites cycle through it, appends restart at it")
      ->default_str("16MiB")
      ->type_name("SIZE")
      ->check(Size());
  app.add_option("--ci", o.target_ci_percent,
                 "Stop a probe once its median's 95% confidence interval is within +/- this %")
      ->capture_default_str()
      ->check(InRange(0.1, 100.0));
  AddWritersOptions(app, o.writers);
}

Subcommand SetupProbe(CLI::App& app) {
  auto options = std::make_shared<ProbeOptions>();
  CLI::App* sub = app.add_subcommand("probe", "Measure the raw sync primitives on each PATH");
  sub->add_option("PATH", options->paths, "Directories to measure")->capture_default_str();
  AddProbeOptions(*sub, *options);
  sub->add_flag("--pg", options->pg,
                "pg_test_fsync's table: its sync methods (O_DIRECT for open_*), 8 KiB writes, "
                "open_sync's write sizes down to 16 x 1 KiB, with percentiles");
  AddCommonOptions(*sub, options->common,
                   "Short run: the same probe set with a 5 s budget instead of 30 s", "30s");
  return {sub, [options] { return RunProbe(*options); }};
}

int RunProbe(const ProbeOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = run::ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<run::Plan> plan = run::MakeProbeCommandPlan(platform, *paths, o, o.common);
  if (!plan.ok()) return UsageError(plan.status().message());
  return ExecutePlan(platform, *plan, o.common.out, MeasurementExitCode);
}

}  // namespace durprobe::cli
