// What a SQLite configuration risks on power loss or an OS crash on one path. SQLite documents a
// guarantee per journal mode and synchronous level (sqlite_bench::PowerLossRisk); it holds only
// where a sync reaches stable storage. The path's findings decide whether it does:
// - voiding findings (syncs reach memory only, are dropped, or turned into no-ops): durability is
//   not provided here, whatever SQLite's setting, and the risk names the finding codes;
// - qualifying findings (a sync may be absorbed by a volatile cache, or intercepted by a preloaded
//   library): SQLite's guarantee holds only if syncs reach stable storage, and the risk says so.
// docs/sqlite.md lists the codes of each kind.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "report/report.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::report {

bool VoidsDurability(std::string_view finding_code);
bool QualifiesDurability(std::string_view finding_code);

// The codes among the findings that void durability, in the findings' order, each once.
std::vector<std::string> NotDurableCodes(const std::vector<Finding>& findings);

struct RowRisk {
  std::string level;                  // none | recent_commits | corruption | not_durable
  std::string documented_level;       // SQLite's guarantee: none | recent_commits | corruption
  std::string summary;                // the console's phrase
  std::vector<std::string> findings;  // the codes that decided (voiding, else qualifying)
};

RowRisk RiskOf(sqlite_bench::JournalMode journal, sqlite_bench::Synchronous sync,
               const std::vector<Finding>& findings);

}  // namespace durprobe::report
