#include "run/command_plans.h"

#include "gate/wal_sync_method.h"
#include "run/budget.h"
#include "run/plan_parts.h"
#include "run/writers_plan.h"
#include "text/units.h"

namespace durprobe::run {

Result<std::uint64_t> ResolveBudget(const BudgetRequest& r, CommandBudget budget) {
  if (!r.budget.empty()) return text::ParseDurationNanos(r.budget);
  return r.quick ? budget.quick_ns : budget.default_ns;
}

nlohmann::json BudgetOptions(const BudgetRequest& r, std::uint64_t budget_ns) {
  return {{model::kQuickOption, r.quick}, {"budget_ns", budget_ns}};
}

Plan PlanFor(const std::string& command, const std::vector<std::string>& paths,
             const BudgetRequest& r, std::uint64_t budget_ns) {
  Plan plan;
  plan.command = command;
  plan.options = BudgetOptions(r, budget_ns);
  plan.budget_ns = budget_ns;
  plan.repeats = r.repeat;
  plan.count_flushes = !r.no_flush_count;
  plan.paths = paths;
  return plan;
}

Result<Plan> MakeRunPlan(platform::Platform& platform, const std::vector<std::string>& paths,
                         const ProbeRequest& probe, const SqliteMatrixRequest& matrix,
                         const BudgetRequest& budget) {
  Result<std::uint64_t> budget_ns = ResolveBudget(budget, kRunBudget);
  if (!budget_ns.ok()) return budget_ns.status();
  RunSplit split = SplitRun(*budget_ns, paths.size());
  // Concurrency is behind --writers: its 16 cells would take half the probes' share (and at
  // --quick's 5 s leave each cell too short for a tail): docs/probes.md "Concurrent syncers".
  Plan plan = PlanFor("run", paths, budget, *budget_ns);
  plan.run_inspect = true;
  plan.run_probes = true;
  plan.run_sqlite = true;
  Result<probes::ProbePlan> probe_plan = MakeProbePlan(platform, probe, split.probe_ns);
  if (!probe_plan.ok()) return probe_plan.status();
  plan.probes = *probe_plan;
  if (Status s = AddConcurrency(probe, split.probe_ns, plan); !s.ok()) return s;
  Result<sqlite_bench::MatrixPlan> sqlite_plan = MakeSqlitePlan(platform, matrix, split.sqlite_ns);
  if (!sqlite_plan.ok()) return sqlite_plan.status();
  plan.sqlite = *sqlite_plan;
  return plan;
}

Result<Plan> MakeProbeCommandPlan(platform::Platform& platform,
                                  const std::vector<std::string>& paths, const ProbeRequest& o,
                                  const BudgetRequest& budget) {
  Result<std::uint64_t> budget_ns = ResolveBudget(budget, kProbeBudget);
  if (!budget_ns.ok()) return budget_ns.status();
  const std::uint64_t per_path = PerPath(*budget_ns, paths.size());
  if (o.pg && !(o.primitives.empty() && o.patterns.empty() && o.sizes.empty())) {
    return Status::InvalidArgument(
        "--pg measures pg_test_fsync's own probes: leave out --primitives, --patterns and --sizes");
  }
  Plan plan = PlanFor("probe", paths, budget, *budget_ns);
  Result<probes::ProbePlan> probe_plan = MakeProbePlan(platform, o, per_path);
  if (!probe_plan.ok()) return probe_plan.status();
  plan.probes = *probe_plan;
  if (o.pg) {
    plan.probes.specs = gate::PgTestFsyncSpecs();
    plan.probes.rule = probes::PlanRule(per_path, plan.probes.specs, o.target_ci_percent / 100.0);
    plan.options["pg_test_fsync"] = true;
  }
  if (Status s = AddConcurrency(o, per_path, plan); !s.ok()) return s;
  plan.run_inspect = true;  // cheap, and the plausibility checks need the device's facts
  plan.run_probes = true;
  return plan;
}

Result<Plan> MakeSqliteCommandPlan(platform::Platform& platform,
                                   const std::vector<std::string>& paths, const SqliteRequest& o,
                                   const BudgetRequest& budget) {
  Result<std::uint64_t> budget_ns = ResolveBudget(budget, kSqliteBudget);
  if (!budget_ns.ok()) return budget_ns.status();
  // With --workloads the matrix (and its probes) runs only when "commits" is listed.
  bool matrix_runs = RunsCommitMatrix(o.workloads);
  Result<sqlite_bench::WorkloadPlan> workloads = MakeWorkloadPlan(o.workloads, 0);
  if (!workloads.ok()) return workloads.status();
  bool workloads_run = !workloads->workloads.empty();
  bool probes_run = matrix_runs && !o.no_probes;
  SqliteSplit split = SplitSqlite(*budget_ns, paths.size(), matrix_runs, probes_run, workloads_run);
  workloads->options.budget_ns = split.workload_ns;
  Result<sqlite_bench::MatrixPlan> matrix = MakeSqlitePlan(platform, o.matrix, split.matrix_ns);
  if (!matrix.ok()) return matrix.status();
  Plan plan = PlanFor("sqlite", paths, budget, *budget_ns);
  plan.run_inspect = true;
  plan.run_probes = probes_run;
  plan.probes = CorrelationProbePlan(platform, split.probe_ns);
  plan.run_sqlite = matrix_runs;
  plan.sqlite = *matrix;
  plan.run_workloads = workloads_run;
  plan.workloads = *workloads;
  plan.run_crashsim = o.crashsim && matrix_runs;
  plan.crashsim = MakeCrashsimPlan(o.crashsim_options, CrashsimConfigsFor(matrix->configs));
  return plan;
}

Result<Plan> MakeComparePlan(platform::Platform& platform, const std::vector<std::string>& paths,
                             const CompareRequest& o, const BudgetRequest& budget) {
  Result<std::uint64_t> budget_ns = ResolveBudget(budget, kCompareBudget);
  if (!budget_ns.ok()) return budget_ns.status();
  Plan plan = PlanFor("compare", paths, budget, *budget_ns);
  plan.schedule = Schedule::kInterleaved;
  plan.run_inspect = true;
  plan.run_probes = true;
  plan.ops = probes::AllFileOps();
  Result<probes::ProbePlan> probe_plan = MakeProbePlan(platform, o.probe, *budget_ns);
  if (!probe_plan.ok()) return probe_plan.status();
  CompareSplit split = SplitCompare(*budget_ns, paths.size(), probe_plan->specs.size(),
                                    plan.ops.size(), o.rounds, !o.no_sqlite);
  plan.rounds = split.rounds;
  // With --writers, the concurrency cells (each run on every path in turn) take a slice each,
  // as long as each probe's or op's slice on a path.
  if (o.probe.writers.asked()) {
    const std::uint64_t per_path = PerPath(split.probe_ns, paths.size());
    const std::size_t cells = CellCount(o.probe.writers);
    const std::uint64_t share = ConcurrencyShare(per_path, cells, split.slices / paths.size());
    Result<ConcurrencyPlan> c =
        MakeConcurrencyPlan(o.probe.writers, share, probe_plan->op_options.file_size);
    if (!c.ok()) return Status::InvalidArgument(c.status().message());
    plan.run_concurrency = true;
    plan.concurrency = *c;
    split.probe_ns -= share * paths.size();
  }
  plan.probes = *probe_plan;
  plan.probes.rule =
      probes::RuleForBudget(split.probe_ns, split.slices, o.probe.target_ci_percent / 100.0);
  // Within a round every path gets its full slice: stopping early on one path and not on
  // another would give them different amounts of noise.
  plan.probes.rule.target_ci = 0.0;
  plan.probes.rule.min_ns = plan.probes.rule.max_ns;
  if (!o.no_sqlite) {
    Result<sqlite_bench::MatrixPlan> sqlite_plan =
        MakeSqlitePlan(platform, o.matrix, split.sqlite_ns);
    if (!sqlite_plan.ok()) return sqlite_plan.status();
    plan.run_sqlite = true;
    plan.sqlite = *sqlite_plan;
  }
  return plan;
}

Plan MakeInspectPlan(const std::vector<std::string>& paths) {
  Plan plan;
  plan.command = "inspect";
  plan.paths = paths;
  plan.run_inspect = true;
  return plan;
}

Plan MakeCrashsimCommandPlan(const std::vector<std::string>& paths, const CrashsimRequest& o) {
  std::vector<sqlite_bench::JournalMode> journals;
  for (const std::string& j : o.journal_modes)
    journals.push_back(sqlite_bench::JournalModeNames().at(j));
  std::vector<sqlite_bench::Synchronous> syncs;
  for (const std::string& s : o.synchronous)
    syncs.push_back(sqlite_bench::SynchronousNames().at(s));
  std::vector<std::uint32_t> batches;
  for (const std::string& b : o.batches)
    batches.push_back(static_cast<std::uint32_t>(std::stoul(b)));
  Plan plan;
  plan.command = "crashsim";
  plan.paths = paths;
  plan.run_crashsim = true;
  // Cheap, and the summary's durability verdict needs the mount (else "not identified").
  plan.run_inspect = true;
  plan.crashsim = MakeCrashsimPlan(o, sqlite_bench::CrashsimConfigs(journals, syncs, batches));
  return plan;
}

}  // namespace durprobe::run
