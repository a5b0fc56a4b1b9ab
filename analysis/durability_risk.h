// What a SQLite configuration risks on power loss or an OS crash on one path. SQLite documents a
// guarantee per journal mode and synchronous level (sqlite_bench::PowerLossRisk); it holds only
// where a sync reaches stable storage, which the path's durability verdict says
// (analysis/durability_model.h):
// - not_durable: durability is not provided here, whatever SQLite's setting, and the risk names
//   the layer and the finding codes that void it;
// - unproven: SQLite's guarantee holds only if syncs reach stable storage, and the risk says so;
// - durable: SQLite's guarantee as documented.
// docs/sqlite.md quotes SQLite's sentence behind each documented level.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/durability.h"
#include "model/report.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::analysis {

// What voids durability on the target: its verdict's finding codes (or its deciding layer when
// no finding names it); empty unless the verdict is not_durable.
std::vector<std::string> NotDurableCodes(const model::Target& target);

model::RowRisk RiskOf(sqlite_bench::JournalMode journal, sqlite_bench::Synchronous sync,
                      const std::optional<model::Durability>& durability);

// Sets every SQLite entry's risk from the target's durability verdict as it stands. The executor
// calls it (through AddSqliteResults) once the verdict is final, the reader after reading a
// target, so no format works a risk out while printing.
void AssessRisks(model::Target& target);

}  // namespace durprobe::analysis
