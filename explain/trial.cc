#include "explain/trial.h"

#include <fmt/format.h>

#include "explain/compare_analysis.h"
#include "text/units.h"

namespace durprobe::explain {
namespace {

std::string RatioText(const char* what, double ratio) {
  return ratio > 0 ? fmt::format("{} {}", what, text::FormatRatio(ratio))
                   : fmt::format("{} -", what);
}

const model::SqliteEntry* FindConfig(const model::Target& t, sqlite_bench::JournalMode journal) {
  for (const model::SqliteEntry& e : t.sqlite) {
    if (e.result.config.journal == journal &&
        e.result.config.sync == sqlite_bench::Synchronous::kFull && e.result.commits_per_sec > 0) {
      return &e;
    }
  }
  return nullptr;
}

}  // namespace

const Cause* CauseToTry(const std::vector<Cause>& causes, std::string& instead_of) {
  instead_of.clear();
  if (causes.empty()) return nullptr;
  const Cause& leading = causes.front();
  if (leading.trial.kind || !leading.trial.command.empty()) return &leading;
  for (const Cause& c : causes) {
    if (c.trial.kind) {
      instead_of = leading.key;
      return &c;
    }
  }
  return &leading;
}

std::string TrialEffect(const Trial& trial, const std::vector<model::Target>& measured) {
  if (trial.kind == TrialKind::kSqliteWal) {
    if (measured.empty()) return "nothing was measured";
    const model::SqliteEntry* del = FindConfig(measured[0], sqlite_bench::JournalMode::kDelete);
    const model::SqliteEntry* wal = FindConfig(measured[0], sqlite_bench::JournalMode::kWal);
    if (del == nullptr || wal == nullptr) return "DELETE/FULL or WAL/FULL did not complete";
    return fmt::format(
        "on {}: WAL/FULL commits {}/s against DELETE/FULL's {}/s ({})", measured[0].path,
        text::FormatRate(wal->result.commits_per_sec),
        text::FormatRate(del->result.commits_per_sec),
        text::FormatRatio(wal->result.commits_per_sec / del->result.commits_per_sec));
  }
  std::vector<Verdict> verdicts = CompareVerdicts(measured);
  if (verdicts.empty()) return "nothing was measured";
  const Verdict& v = verdicts.front();
  return fmt::format("{} against {}: {}, {}, {}; verdict {}: {}", v.path, measured[0].path,
                     RatioText("per sync", v.per_sync_ratio), RatioText("per op", v.per_op_ratio),
                     RatioText("metadata", v.metadata_ratio), NameOf(v.dominant), v.message);
}

}  // namespace durprobe::explain
