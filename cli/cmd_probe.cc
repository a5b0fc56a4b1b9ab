#include "cli/cmd_probe.h"

#include <fmt/format.h>

#include <memory>

#include "cli/execute_plan.h"
#include "cli/exit_status.h"
#include "cli/target_paths.h"
#include "cli/validators.h"
#include "gate/wal_sync_method.h"
#include "run/budget.h"
#include "text/units.h"

namespace durprobe::cli {
namespace {

constexpr std::uint64_t kProbeBudgetNs = 30'000'000'000;
constexpr std::uint64_t kProbeQuickBudgetNs = 5'000'000'000;

}  // namespace

void AddProbeOptions(CLI::App& app, ProbeOptions& o) {
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

Status AddConcurrency(const ProbeOptions& o, std::uint64_t probe_ns, run::Plan& plan) {
  if (!o.writers.asked()) return Status::Ok();
  std::uint64_t share =
      run::ConcurrencyShare(probe_ns, CellCount(o.writers), plan.probes.specs.size());
  std::uint64_t file_size = o.file_size.empty() ? 16u << 20 : *report::ParseSize(o.file_size);
  Result<run::ConcurrencyPlan> c = MakeConcurrencyPlan(o.writers, share, file_size);
  if (!c.ok()) return c.status();
  plan.run_concurrency = true;
  plan.concurrency = *c;
  plan.probes.rule =
      probes::PlanRule(probe_ns - share, plan.probes.specs, o.target_ci_percent / 100.0);
  return Status::Ok();
}

Result<probes::ProbePlan> MakeProbePlan(platform::Platform& platform, const ProbeOptions& o,
                                        std::uint64_t budget_ns) {
  if (Status s = CheckWritersPatterns(o.writers, o.patterns); !s.ok()) return s;
  probes::Selection sel;
  for (const std::string& p : o.primitives)
    sel.primitives.push_back(probes::PrimitiveNames().at(p));
  for (const std::string& p : o.patterns) sel.patterns.push_back(probes::PatternNames().at(p));
  for (const std::string& s : o.sizes) sel.sizes.push_back(*report::ParseSize(s));
  Result<std::vector<probes::ProbeSpec>> specs = probes::ExpandSelection(platform, sel);
  if (!specs.ok()) return specs.status();
  probes::ProbePlan plan;
  plan.specs = std::move(*specs);
  plan.rule = probes::PlanRule(budget_ns, plan.specs, o.target_ci_percent / 100.0);
  if (!o.file_size.empty()) plan.op_options.file_size = *report::ParseSize(o.file_size);
  for (const probes::ProbeSpec& spec : plan.specs) {
    if (spec.write_size > plan.op_options.file_size) {
      return Status::InvalidArgument(fmt::format("--file-size {} is smaller than the write size {}",
                                                 plan.op_options.file_size, spec.write_size));
    }
  }
  return plan;
}

nlohmann::json BudgetOptions(const CommonOptions& common, std::uint64_t budget_ns) {
  return {{"quick", common.quick}, {"budget_ns", budget_ns}};
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
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<std::uint64_t> budget = BudgetNanos(o.common, kProbeBudgetNs, kProbeQuickBudgetNs);
  if (!budget.ok()) return UsageError(budget.status().message());
  run::Plan plan;
  const std::uint64_t per_path = run::PerPath(*budget, paths->size());
  if (o.pg && !(o.primitives.empty() && o.patterns.empty() && o.sizes.empty())) {
    return UsageError(
        "--pg measures pg_test_fsync's own probes: leave out --primitives, --patterns and --sizes");
  }
  Result<probes::ProbePlan> probe_plan = MakeProbePlan(platform, o, per_path);
  if (!probe_plan.ok()) return UsageError(probe_plan.status().message());
  plan.probes = *probe_plan;
  if (o.pg) {
    plan.probes.specs = report::PgTestFsyncSpecs();
    plan.probes.rule = probes::PlanRule(per_path, plan.probes.specs, o.target_ci_percent / 100.0);
  }
  if (Status s = AddConcurrency(o, per_path, plan); !s.ok()) return UsageError(s.message());
  plan.command = "probe";
  plan.options = BudgetOptions(o.common, *budget);
  if (o.pg) plan.options["pg_test_fsync"] = true;
  plan.budget_ns = *budget;
  plan.repeats = o.common.repeat;
  plan.count_flushes = !o.common.no_flush_count;
  plan.paths = *paths;
  plan.run_inspect = true;  // cheap, and the plausibility checks need the device's facts
  plan.run_probes = true;
  return ExecutePlan(platform, plan, o.common.out, MeasurementExitCode);
}

}  // namespace durprobe::cli
