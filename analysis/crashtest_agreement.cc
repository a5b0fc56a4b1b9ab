#include "analysis/crashtest_agreement.h"

#include <fmt/format.h>

#include <algorithm>

#include "platform/crash_log.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::analysis {

std::string_view NameOf(CrashClass c) {
  switch (c) {
    case CrashClass::kNone:
      return "none lost";
    case CrashClass::kLost:
      return "commits lost";
    case CrashClass::kCorrupt:
      return "corrupt";
  }
  return "";
}

CrashClass ClassOf(const sqlite_bench::CrashtestResult& r) {
  if (r.corrupt > 0) return CrashClass::kCorrupt;
  return r.lost_states > 0 ? CrashClass::kLost : CrashClass::kNone;
}

CrashClass ClassOf(const sqlite_bench::CrashsimResult& r) {
  if (r.corrupt > 0) return CrashClass::kCorrupt;
  return r.trials_with_loss > 0 ? CrashClass::kLost : CrashClass::kNone;
}

bool AsDocumented(const sqlite_bench::CrashtestResult& r) {
  switch (sqlite_bench::PowerLossRisk(r.config.journal, r.config.sync).level) {
    case sqlite_bench::RiskLevel::kNone:
      return r.corrupt == 0 && r.lost_states == 0;
    case sqlite_bench::RiskLevel::kLastCommit:
      return r.corrupt == 0 && r.lost_max <= 1;
    case sqlite_bench::RiskLevel::kRecentCommits:
      return r.corrupt == 0;
    case sqlite_bench::RiskLevel::kCorruption:
    case sqlite_bench::RiskLevel::kNotDurable:
      return true;
  }
  return true;
}

std::vector<const sqlite_bench::CrashtestResult*> PathCrashtests(const model::Target& t) {
  std::vector<const sqlite_bench::CrashtestResult*> rows;
  for (const sqlite_bench::CrashtestResult& r : t.crashtest) {
    if (r.paths_own_fs && r.device == platform::CacheModeName(platform::CacheMode::kHonest) &&
        r.states > 0) {
      rows.push_back(&r);
    }
  }
  return rows;
}

std::string CrashtestCitation(const model::Target& t, sqlite_bench::JournalMode journal,
                              sqlite_bench::Synchronous sync) {
  std::uint64_t states = 0, corrupt = 0, lost = 0, lost_max = 0;
  for (const sqlite_bench::CrashtestResult* r : PathCrashtests(t)) {
    if (r->config.journal != journal || r->config.sync != sync) continue;
    states += r->states;
    corrupt += r->corrupt;
    lost += r->lost_states;
    lost_max = std::max(lost_max, r->lost_max);
  }
  if (states == 0) return "";
  if (corrupt > 0) {
    return fmt::format("crash-tested: {} of {} states were corrupt{}", corrupt, states,
                       lost > 0 ? fmt::format(", {} lost commits", lost) : "");
  }
  if (lost == 0) return fmt::format("crash-tested: 0 of {} states lost a commit", states);
  return fmt::format("crash-tested: {} of {} states lost {}", lost, states,
                     lost_max == 1 ? "the last commit" : fmt::format("up to {} commits", lost_max));
}

void CompareWithCrashsim(model::Target& t) {
  for (sqlite_bench::CrashtestResult& row : t.crashtest) {
    row.agrees_with_crashsim.reset();
    if (row.outcome != probes::Outcome::kOk || row.states == 0) continue;
    // crashsim's model keeps every sync it was given: a device that ignores flushes asks
    // another question.
    if (row.device == platform::CacheModeName(platform::CacheMode::kIgnoresFlush)) continue;
    for (const sqlite_bench::CrashsimResult& sim : t.crashsim) {
      const bool same = sim.config.journal == row.config.journal &&
                        sim.config.sync == row.config.sync &&
                        sim.config.rows_per_commit == row.config.rows_per_commit;
      if (same && sim.outcome == probes::Outcome::kOk && sim.trials > 0) {
        row.agrees_with_crashsim = ClassOf(sim) == ClassOf(row);
      }
    }
  }
}

}  // namespace durprobe::analysis
