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

#include "report/model/report.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::report {

bool VoidsDurability(std::string_view finding_code);
bool QualifiesDurability(std::string_view finding_code);

// The codes among the findings that void durability, in the findings' order, each once.
std::vector<std::string> NotDurableCodes(const std::vector<Finding>& findings);

RowRisk RiskOf(sqlite_bench::JournalMode journal, sqlite_bench::Synchronous sync,
               const std::vector<Finding>& findings);

// Sets every SQLite entry's risk from the target's findings as they stand. The executor calls
// it (through AddSqliteResults) once the target's findings are complete, the reader after
// reading a target, so no format works a risk out while printing.
void AssessRisks(Target& target);

}  // namespace durprobe::report
