#include "cli/cmd_probe.h"

#include <fmt/format.h>

#include <memory>

#include "report/units.h"

namespace durprobe::cli {
namespace {

constexpr std::uint64_t kDefaultBudgetNs = 30'000'000'000;
constexpr std::uint64_t kQuickBudgetNs = 5'000'000'000;

template <typename Enum>
std::vector<std::string> Names(const std::map<std::string, Enum>& names) {
  std::vector<std::string> out;
  for (const auto& entry : names) out.push_back(entry.first);
  return out;
}

}  // namespace

void AddProbeOptions(CLI::App& app, ProbeOptions& o) {
  AddListOption(app, "--primitives", o.primitives, "Sync primitives to measure (comma-separated)")
      ->transform(OneOf(Names(probes::PrimitiveNames()), "primitive"));
  AddListOption(app, "--patterns", o.patterns, "Write patterns (comma-separated)")
      ->transform(OneOf(Names(probes::PatternNames()), "pattern"));
  AddListOption(app, "--sizes", o.sizes, "Write sizes to sweep, e.g. 512,2300,4k,8k,64k")
      ->check(Size());
  app.add_option(
         "--file-size", o.file_size,
         "Probe file size: overwrites cycle through it, appends restart at it (default 16MiB)")
      ->check(Size());
  app.add_option("--ci", o.target_ci_percent,
                 "Stop a probe once its median's 95% confidence interval is within +/- this %")
      ->check(CLI::Range(0.1, 100.0));
}

Result<probes::ProbePlan> MakeProbePlan(platform::Platform& platform, const ProbeOptions& o,
                                        std::uint64_t budget_ns) {
  probes::Selection sel;
  for (const std::string& p : o.primitives)
    sel.primitives.push_back(probes::PrimitiveNames().at(p));
  for (const std::string& p : o.patterns) sel.patterns.push_back(probes::PatternNames().at(p));
  for (const std::string& s : o.sizes) sel.sizes.push_back(*report::ParseSize(s));
  Result<std::vector<probes::ProbeSpec>> specs = probes::ExpandSelection(platform, sel);
  if (!specs.ok()) return specs.status();
  probes::ProbePlan plan;
  plan.specs = std::move(*specs);
  plan.rule = probes::RuleForBudget(budget_ns, plan.specs.size(), o.target_ci_percent / 100.0);
  if (!o.file_size.empty()) plan.op_options.file_size = *report::ParseSize(o.file_size);
  for (const probes::ProbeSpec& spec : plan.specs) {
    if (spec.write_size > plan.op_options.file_size) {
      return Status::InvalidArgument(fmt::format("--file-size {} is smaller than the write size {}",
                                                 plan.op_options.file_size, spec.write_size));
    }
  }
  return plan;
}

int ExecuteAndEmit(platform::Platform& platform, const Plan& plan, const CommonOptions& common) {
  Execution ex = Execute(platform, plan);
  if (int code = InterruptedExitCode(); code >= 0) {
    UsageError(ex.status.ok() ? "interrupted" : ex.status.message() + "; scratch removed");
    return code;
  }
  if (!ex.status.ok()) return UsageError(ex.status.message());
  Status emitted = EmitReport(platform, ex.report, common);
  if (!emitted.ok()) return UsageError("cannot write the report: " + emitted.message());
  return PrintFailures(ex.report.targets) > 0 ? kExitFail : kExitOk;
}

Subcommand SetupProbe(CLI::App& app) {
  auto options = std::make_shared<ProbeOptions>();
  CLI::App* sub = app.add_subcommand("probe", "Measure the raw sync primitives on each PATH");
  sub->add_option("PATH", options->paths, "Directories to measure (default: .)");
  AddProbeOptions(*sub, *options);
  AddCommonOptions(*sub, options->common);
  return {sub, [options] { return RunProbe(*options); }};
}

int RunProbe(const ProbeOptions& o) {
  platform::Platform& platform = platform::Default();
  Result<std::vector<std::string>> paths = ResolveTargets(platform, o.paths);
  if (!paths.ok()) return UsageError(paths.status().message());
  Result<std::uint64_t> budget = BudgetNanos(o.common, kDefaultBudgetNs, kQuickBudgetNs);
  if (!budget.ok()) return UsageError(budget.status().message());
  Result<probes::ProbePlan> probe_plan = MakeProbePlan(platform, o, *budget / paths->size());
  if (!probe_plan.ok()) return UsageError(probe_plan.status().message());
  Plan plan;
  plan.command = "probe";
  plan.paths = *paths;
  plan.verbose = o.common.verbose;
  plan.run_inspect = true;  // cheap, and the plausibility checks need the device's facts
  plan.run_probes = true;
  plan.probes = *probe_plan;
  return ExecuteAndEmit(platform, plan, o.common);
}

}  // namespace durprobe::cli
