#include "cli/compare_plan.h"

#include "cli/plan.h"

#include <iostream>
#include <memory>

#include <fmt/ostream.h>

#include "platform/interrupt.h"
#include "platform/scratch.h"
#include "report/context.h"
#include "report/mount_findings.h"
#include "report/plausibility.h"
#include "report/probe_findings.h"
#include "report/sqlite_correlation.h"
#include "run/scratch_need.h"

namespace durprobe::cli {
namespace {

// A probe that failed or is unsupported in one round is not run again on that path.
bool Usable(const probes::LoopOutcome& samples, int round) {
  return round == 0 || samples.status.ok();
}

}  // namespace

CompareExecution ExecuteCompare(platform::Platform& platform, const ComparePlan& plan) {
  CompareExecution ex;
  ex.comparison.context = report::MakeContext(platform, "compare");
  std::vector<std::unique_ptr<platform::ScratchDir>> scratch;
  run::ScratchParts parts{.probe_specs = &plan.specs,
                          .op_options = plan.op_options,
                          .matrix = plan.run_sqlite ? &plan.sqlite : nullptr};
  for (const std::string& path : plan.paths) {
    ex.status = run::CheckFreeSpace(platform, path, run::ScratchNeedBytes(parts));
    if (!ex.status.ok()) return ex;
    auto dir = platform::ScratchDir::Create(platform, path);
    if (!dir.ok()) {
      ex.status = Status::InvalidArgument("cannot create a scratch directory in " + path + ": " +
                                          dir.status().message());
      return ex;
    }
    scratch.push_back(std::move(*dir));
  }
  const std::size_t n = plan.paths.size();
  std::vector<std::vector<probes::LoopOutcome>> probe_samples(
      n, std::vector<probes::LoopOutcome>(plan.specs.size()));
  std::vector<std::vector<probes::LoopOutcome>> op_samples(
      n, std::vector<probes::LoopOutcome>(plan.ops.size()));

  for (int round = 0; round < plan.rounds && platform::InterruptSignal() == 0; ++round) {
    if (plan.verbose) fmt::print(std::cerr, "round {}/{}\n", round + 1, plan.rounds);
    for (std::size_t s = 0; s < plan.specs.size(); ++s) {
      for (std::size_t p = 0; p < n && platform::InterruptSignal() == 0; ++p) {
        if (!Usable(probe_samples[p][s], round)) continue;
        probes::Merge(probe_samples[p][s],
                      probes::SampleProbe(platform, scratch[p]->path(), plan.specs[s], plan.rule,
                                          plan.op_options));
      }
    }
    for (std::size_t o = 0; o < plan.ops.size(); ++o) {
      for (std::size_t p = 0; p < n && platform::InterruptSignal() == 0; ++p) {
        if (!Usable(op_samples[p][o], round)) continue;
        probes::Merge(op_samples[p][o],
                      probes::SampleOpCost(platform, scratch[p]->path(), plan.ops[o], plan.rule));
      }
    }
  }

  std::vector<std::vector<sqlite_bench::CommitResult>> commits(n);
  if (plan.run_sqlite) {
    for (const sqlite_bench::CommitConfig& config : plan.sqlite.configs) {
      sqlite_bench::MatrixPlan one = plan.sqlite;
      one.configs = {config};
      for (std::size_t p = 0; p < n && platform::InterruptSignal() == 0; ++p) {
        if (plan.verbose) {
          fmt::print(std::cerr, "sqlite {} on {}\n", sqlite_bench::Label(config), plan.paths[p]);
        }
        for (sqlite_bench::CommitResult& r :
             sqlite_bench::RunCommitMatrix(platform, scratch[p]->path(), one)) {
          commits[p].push_back(std::move(r));
        }
      }
    }
  }

  for (std::size_t p = 0; p < n; ++p) {
    report::Target target;
    target.path = plan.paths[p];
    for (std::size_t s = 0; s < plan.specs.size(); ++s) {
      target.probes.push_back(
          probes::ToResult(plan.specs[s], probe_samples[p][s], plan.rule.target_ci));
    }
    for (std::size_t o = 0; o < plan.ops.size(); ++o) {
      target.op_costs.push_back(probes::ToOpCostResult(plan.ops[o], op_samples[p][o]));
    }
    InspectTarget(platform, ex.comparison.context, target);
    report::StorageFacts facts =
        target.mount ? report::StorageFactsOf(*target.mount) : report::StorageFacts{};
    for (report::Finding& f : report::ProbeErrorFindings(target)) target.findings.push_back(f);
    for (report::Finding& f : report::PlausibilityFindings(target, facts)) {
      target.findings.push_back(std::move(f));
    }
    if (!commits[p].empty()) report::AddSqliteResults(target, std::move(commits[p]));
    Status removed = scratch[p]->Remove();
    if (!removed.ok() && ex.status.ok()) {
      ex.status = Status::Error("could not remove scratch: " + removed.message());
    }
    ex.comparison.targets.push_back(std::move(target));
  }
  ex.comparison.verdicts = report::CompareVerdicts(ex.comparison.targets);
  if (int sig = platform::InterruptSignal(); sig != 0) ex.status = Status::Interrupted(sig);
  return ex;
}

}  // namespace durprobe::cli
