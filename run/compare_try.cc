#include "run/compare_try.h"

#include <memory>

#include "platform/scratch.h"
#include "run/command_plans.h"
#include "run/executor.h"
#include "run/target_paths.h"

namespace durprobe::run {
namespace {

// Runs a short compare of paths; the targets, or the error as the effect.
Result<std::vector<model::Target>> Measure(platform::Platform& platform, CompareRequest o,
                                           BudgetRequest budget,
                                           const std::vector<std::string>& paths, bool sqlite) {
  budget.quick = budget.budget.empty();
  o.no_sqlite = !sqlite;
  if (sqlite) {
    o.matrix.journal_modes = {"delete", "wal"};
    o.matrix.synchronous = {"full"};
  }
  Result<std::vector<std::string>> resolved = ResolveTargets(platform, paths);
  if (!resolved.ok()) return resolved.status();
  Result<Plan> plan = MakeComparePlan(platform, *resolved, o, budget);
  if (!plan.ok()) return plan.status();
  Execution ex = Execute(platform, *plan);
  if (!ex.status.ok()) return ex.status;
  return std::move(ex.report.targets);
}

}  // namespace

std::optional<explain::TrialResult> TryLeadingCause(platform::Platform& platform,
                                                    const CompareRequest& request,
                                                    const BudgetRequest& budget,
                                                    const explain::Comparison& comparison) {
  const explain::Verdict* v = explain::LeadingVerdict(comparison.verdicts);
  explain::TrialResult r;
  if (v == nullptr) {
    r.effect = "no cause to test: the paths do not differ in anything the causes stand for";
    return r;
  }
  const explain::Cause& cause = *explain::CauseToTry(v->causes, r.instead_of);
  const explain::Trial& t = cause.trial;
  r.cause = cause.key;
  r.command = t.command;
  if (!t.kind) {
    r.effect = t.command.empty() ? "durprobe has no test for this cause that it can run here"
                                 : "not run: " + t.note;
    return r;
  }
  std::unique_ptr<platform::ScratchDir> holder;
  std::vector<std::string> paths = t.paths;
  bool sqlite = false;
  switch (*t.kind) {
    case explain::TrialKind::kComparePaths:
      break;
    case explain::TrialKind::kSqliteWal:
      sqlite = true;
      break;
    case explain::TrialKind::kNocowDir: {
      // A directory of durprobe's own, marked nodatacow, beside the path's scratch.
      Result<std::unique_ptr<platform::ScratchDir>> dir =
          platform::ScratchDir::Create(platform, t.paths[0]);
      if (!dir.ok()) {
        r.effect = "not run: " + dir.status().message();
        return r;
      }
      holder = std::move(*dir);
      std::string nocow = holder->work_path() + "/nocow";
      Status made = platform.MakeDirectory(nocow);
      if (made.ok()) made = platform.SetNoCopyOnWrite(nocow);
      if (!made.ok()) {
        (void)platform.RemoveDirectory(nocow);
        (void)holder->Remove();
        r.effect = "not run: " + made.message();
        return r;
      }
      paths = {t.paths[0], nocow};
      break;
    }
  }
  Result<std::vector<model::Target>> measured = Measure(platform, request, budget, paths, sqlite);
  if (holder) {
    (void)platform.RemoveDirectory(paths[1]);
    (void)holder->Remove();
  }
  if (!measured.ok()) {
    r.effect = "could not run it: " + measured.status().message();
    return r;
  }
  r.targets = std::move(*measured);
  r.effect = explain::TrialEffect(t, r.targets);
  return r;
}

}  // namespace durprobe::run
