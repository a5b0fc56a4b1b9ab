// `durprobe probe PATH...`: the raw sync primitives. Also the probe options `run` shares.
#pragma once

#include <string>
#include <vector>

#include "cli/standard_options.h"
#include "cli/subcommand.h"
#include "cli/writers_options.h"
#include "platform/platform.h"
#include "probes/runner.h"

namespace durprobe::cli {

struct ProbeOptions {
  std::vector<std::string> paths{"."};
  std::vector<std::string> primitives;
  std::vector<std::string> patterns;
  std::vector<std::string> sizes;
  double target_ci_percent = 5.0;
  std::string file_size;   // overwrite region and append cap; "" = 16 MiB
  WritersOptions writers;  // --writers: the concurrency phase
  bool pg = false;         // probe --pg: pg_test_fsync's probes and table
  CommonOptions common;
};

// Adds --primitives, --patterns, --sizes, --file-size, --ci and --writers to app.
void AddProbeOptions(CLI::App& app, ProbeOptions& options);
// The probe part of a plan from the options, with budget_ns shared over the probes.
Result<probes::ProbePlan> MakeProbePlan(platform::Platform& platform, const ProbeOptions& options,
                                        std::uint64_t budget_ns);
// With --writers, the concurrency phase (plan.concurrency, run_concurrency set) takes its share
// of probe_ns, each cell as much as each of plan.probes' probes (run/budget.h ConcurrencyShare),
// and plan.probes.rule is re-cut for what is left. Nothing without --writers.
Status AddConcurrency(const ProbeOptions& options, std::uint64_t probe_ns, run::Plan& plan);
// quick and the budget as context.options records them.
nlohmann::json BudgetOptions(const CommonOptions& common, std::uint64_t budget_ns);

Subcommand SetupProbe(CLI::App& app);
int RunProbe(const ProbeOptions& options);

}  // namespace durprobe::cli
