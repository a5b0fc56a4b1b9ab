// The path-by-path schedule (run, probe, sqlite, check): each target is inspected, probed, its
// SQLite matrix and workloads run, and its scratch removed, before the next one starts, so a
// console can show each target's sections as they finish.
#include <fmt/format.h>

#include "report/labels.h"
#include "report/sqlite_correlation.h"
#include "run/executor.h"
#include "run/reference.h"
#include "run/schedule.h"

namespace durprobe::run {
namespace {

constexpr std::uint64_t kMinWorkloadNs = 500'000'000;  // locks take no budget but real time

void RunProbesOn(RunState& s, report::Target& t, const std::string& dir) {
  const probes::ProbePlan& pp = s.plan.probes;
  for (const probes::ProbeSpec& spec : pp.specs) {
    if (Interrupted()) {
      t.unfinished.push_back({"probe", report::ProbeLabel(spec)});
      continue;
    }
    s.progress.Start("probe", t.path + ": " + report::ProbeLabel(spec), PlannedProbeNs(pp.rule));
    t.probes.push_back(probes::RunProbe(s.platform, dir, spec, pp.rule, pp.op_options));
    Rebase(t.probes.back(), s.origin_ns);
    s.listener.ProbeDone(t, t.probes.back());
  }
}

void RunSqliteOn(RunState& s, report::Target& t, const std::string& dir) {
  const sqlite_bench::MatrixPlan& mp = s.plan.sqlite;
  std::vector<sqlite_bench::CommitResult> results;
  Result<std::unique_ptr<sqlite_bench::CommitSession>> session =
      sqlite_bench::CommitSession::Open(s.platform, dir);
  for (std::size_t i = 0; i < mp.configs.size(); ++i) {
    const sqlite_bench::CommitConfig& config = mp.configs[i];
    std::string label = sqlite_bench::Label(config);
    if (Interrupted()) {
      t.unfinished.push_back({"sqlite", label});
      continue;
    }
    if (i == 0) SampleReference(s.platform, dir, label, s.origin_ns, t);
    s.progress.Start("sqlite", t.path + ": " + label, mp.options.budget_ns);
    results.push_back(session.ok() ? (*session)->Run(config, mp.options)
                                   : sqlite_bench::NotRun(config, probes::Outcome::kError,
                                                          session.status().message()));
    Rebase(results.back(), s.origin_ns);
    // The sample after this configuration, before the listener hears of it, so the live row's
    // correlation already knows where the device stood on both sides.
    if (!Interrupted()) {
      bool last = i + 1 == mp.configs.size();
      SampleReference(s.platform, dir, last ? "end" : sqlite_bench::Label(mp.configs[i + 1]),
                      s.origin_ns, t);
    }
    std::vector<report::SqliteEntry> entries = report::SqliteEntries(results, t);
    s.listener.SqliteDone(t, entries.back());
  }
  report::AddSqliteResults(t, std::move(results));
}

void RunWorkloadsOn(RunState& s, report::Target& t, const std::string& dir) {
  const sqlite_bench::WorkloadPlan& wp = s.plan.workloads;
  for (sqlite_bench::Workload w : sqlite_bench::SelectedWorkloads(wp)) {
    std::string name(sqlite_bench::NameOf(w));
    if (Interrupted()) {
      t.unfinished.push_back({"workload", name});
      continue;
    }
    s.progress.Start("workload", t.path + ": " + name, PlannedWorkloadNs(wp, w));
    sqlite_bench::RunWorkload(s.platform, dir, wp, w, t.sqlite_workloads);
    s.listener.WorkloadDone(t, name);
  }
}

}  // namespace

std::uint64_t PlannedProbeNs(const probes::StopRule& rule) { return rule.max_ns + rule.warmup_ns; }

std::uint64_t PlannedWorkloadNs(const sqlite_bench::WorkloadPlan& plan, sqlite_bench::Workload w) {
  return std::max(sqlite_bench::WorkloadBudget(plan, w), kMinWorkloadNs);
}

void ExpectItems(const Plan& plan, Progress& progress) {
  int rounds = plan.schedule == Schedule::kInterleaved ? std::max(plan.rounds, 1) : 1;
  for (std::size_t p = 0; p < plan.paths.size(); ++p) {
    if (plan.run_probes) {
      for (std::size_t i = 0; i < plan.probes.specs.size() * rounds; ++i) {
        progress.Expect(PlannedProbeNs(plan.probes.rule));
      }
    }
    for (std::size_t i = 0; i < plan.ops.size() * rounds; ++i) {
      progress.Expect(PlannedProbeNs(plan.probes.rule));
    }
    if (plan.run_sqlite) {
      for (std::size_t i = 0; i < plan.sqlite.configs.size(); ++i) {
        progress.Expect(plan.sqlite.options.budget_ns);
      }
    }
    if (plan.run_workloads) {
      for (sqlite_bench::Workload w : sqlite_bench::SelectedWorkloads(plan.workloads)) {
        progress.Expect(PlannedWorkloadNs(plan.workloads, w));
      }
    }
  }
}

void RunPathByPath(RunState& s) {
  for (std::size_t p = 0; p < s.plan.paths.size(); ++p) {
    report::Target t;
    t.path = s.plan.paths[p];
    s.listener.TargetStarted(t);
    if (s.plan.run_inspect) {
      InspectTarget(s.platform, s.report.context, t);
      s.listener.MountKnown(t);
    }
    if (s.plan.Measures()) {
      const std::string& dir = s.scratch[p]->path();
      // The reference probe brackets the probes too, when SQLite rows will be compared to them.
      if (s.plan.run_sqlite && s.plan.run_probes && !Interrupted()) {
        SampleReference(s.platform, dir, "probes", s.origin_ns, t);
      }
      if (s.plan.run_probes) RunProbesOn(s, t, dir);
      AddPlausibilityFindings(t);
      if (s.plan.run_sqlite) RunSqliteOn(s, t, dir);
      if (s.plan.run_workloads) RunWorkloadsOn(s, t, dir);
      if (s.plan.run_crashsim && !Interrupted()) {
        s.progress.Start("crashsim", t.path + ": simulated power cuts", 0);
        t.crashsim = sqlite_bench::RunCrashsim(s.platform, dir, s.plan.crashsim);
      } else if (s.plan.run_crashsim) {
        t.unfinished.push_back({"crashsim", "simulated power cuts"});
      }
      s.progress.Finish();
      // Free this path's scratch now: the next path may share its filesystem.
      s.scratch[p]->Remove();
    }
    s.listener.TargetDone(t);
    s.report.targets.push_back(std::move(t));
  }
}

}  // namespace durprobe::run
