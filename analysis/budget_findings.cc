#include "analysis/budget_findings.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <utility>

#include "model/finding_codes.h"
#include "model/labels.h"
#include "platform/enum_table.h"
#include "probes/statistics.h"
#include "text/units.h"

namespace durprobe::analysis {
namespace {

// The kind as a count names it: one, many.
struct CountedName {
  model::UnfinishedKind value;
  const char* one;
  const char* many;
};
constexpr CountedName kCountedNames[] = {
    {model::UnfinishedKind::kProbe, "probe", "probes"},
    {model::UnfinishedKind::kOpCost, "operation cost", "operation costs"},
    {model::UnfinishedKind::kConcurrency, "concurrency cell", "concurrency cells"},
    {model::UnfinishedKind::kSqlite, "SQLite configuration", "SQLite configurations"},
    {model::UnfinishedKind::kWorkload, "workload", "workloads"},
    {model::UnfinishedKind::kRound, "probe round", "probe rounds"},
    {model::UnfinishedKind::kCrashsim, "crashsim configuration", "crashsim configurations"},
    {model::UnfinishedKind::kCrashtest, "crashtest configuration", "crashtest configurations"},
    {model::UnfinishedKind::kFaults, "faults filesystem", "faults filesystems"},
};
static_assert(platform::OneRowPerValue(kCountedNames, model::kLastUnfinishedKind),
              "one count's name per UnfinishedKind");

std::string Counted(std::size_t n, model::UnfinishedKind kind) {
  const CountedName* name = platform::RowIn(kCountedNames, kind);
  if (name == nullptr) return std::to_string(n);
  return fmt::format("{} {}", n, n == 1 ? name->one : name->many);
}

}  // namespace

void AddBudgetFindings(model::Target& target) {
  std::vector<std::pair<model::UnfinishedKind, std::size_t>>
      kinds;  // in the order the run met them
  for (const model::Unfinished& u : target.unfinished) {
    if (u.reason != model::Unfinished::kBudget) continue;
    auto it =
        std::find_if(kinds.begin(), kinds.end(), [&](const auto& k) { return k.first == u.kind; });
    if (it == kinds.end()) {
      kinds.push_back({u.kind, 1});
    } else {
      ++it->second;
    }
  }
  if (kinds.empty()) return;
  std::vector<std::string> parts;
  for (const auto& [kind, n] : kinds) parts.push_back(Counted(n, kind));
  std::string message = fmt::format(
      "the budget ran out before {} ran or finished (each listed as not run or not "
      "finished; JSON targets[].unfinished): their figures are missing or shorter than planned",
      fmt::join(parts, ", "));
  std::uint64_t slowest = 0;
  for (const probes::ProbeResult& p : target.probes) {
    if (p.outcome == probes::Outcome::kOk) slowest = std::max(slowest, p.latency.p50);
  }
  if (slowest > 0) {
    message += fmt::format("; the slowest probe here took {} an operation at the median",
                           text::FormatNanos(static_cast<double>(slowest)));
  }
  target.findings.push_back({model::Severity::kWarn, model::codes::kBudgetSpent,
                             message + ". Give the run a longer --budget for every figure"});
}

void AddTooFewOperationsFindings(model::Target& target) {
  // What is withheld is the interval of each such probe's median. Grouped by why, so a short
  // budget's many probes read as one reason; a probe with many operations timed too briefly is
  // not called one with too few (a quick run's page-cache baseline did 43,498 in 0.3 s).
  std::vector<std::string> budget, slow, brief;
  const double slow_ns =
      probes::kMinCiSeconds * 1e9 / static_cast<double>(probes::kMinCiOperations);
  for (const probes::ProbeResult& p : target.probes) {
    if (p.outcome != probes::Outcome::kOk || p.ops == 0) continue;
    if (probes::CiSupported(p.ops, p.seconds)) continue;
    std::string named = fmt::format("{} ({} in {})", model::ProbeLabel(p.spec),
                                    text::OpsCount(p.ops), text::FormatNanos(p.seconds * 1e9));
    if (p.ops >= probes::kMinCiOperations) {
      brief.push_back(std::move(named));
    } else {
      (static_cast<double>(p.latency.p50) >= slow_ns ? slow : budget).push_back(std::move(named));
    }
  }
  const std::size_t n = budget.size() + slow.size() + brief.size();
  if (n == 0) return;
  std::vector<std::string> parts;
  if (!budget.empty()) {
    parts.push_back(
        fmt::format("fewer than {} operations, their share of the budget ended "
                    "first: {}",
                    probes::kMinCiOperations, fmt::join(budget, ", ")));
  }
  if (!slow.empty()) {
    parts.push_back(
        fmt::format("fewer than {} operations, the device is too slow for that many "
                    "in that time: {}",
                    probes::kMinCiOperations, fmt::join(slow, ", ")));
  }
  if (!brief.empty()) {
    parts.push_back(
        fmt::format("operations enough, but timed for under {:.1f} s, too short to "
                    "cover the device's slower moments: {}",
                    probes::kMinCiSeconds, fmt::join(brief, ", ")));
  }
  target.findings.push_back(
      {model::Severity::kInfo, model::codes::kTooFewOperations,
       fmt::format("{} probe{} {} without a confidence interval (one needs {} "
                   "operations over {:.1f} s of timing), so the table prints the count instead "
                   "and the probe is not converged; {}. Give the run a longer --budget, or "
                   "measure fewer things, for figures with intervals",
                   n, n == 1 ? "" : "s", n == 1 ? "shows its median" : "show their medians",
                   probes::kMinCiOperations, probes::kMinCiSeconds, fmt::join(parts, "; "))});
}

}  // namespace durprobe::analysis
