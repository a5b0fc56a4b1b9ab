// The commit matrix as a terminal table, one row per configuration, like the seeds' tables.
// Formats only: every number comes from the entries.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "model/report.h"
#include "model/sqlite_model.h"
#include "render/console/console_reporter.h"
#include "sqlite_bench/crashsim_result.h"
#include "text/table.h"

namespace durprobe::render::console {

// The table's columns (with loss columns when crashsim ran on the same path), a row (collecting
// notes), then notes and the legend. The risk column prints the entry's risk as
// analysis/durability_risk.h decided it. crashsim: null without loss columns. flushes: a row's
// device flushes were counted, so flush/c (flushes per commit) stands beside the syncs.
text::Table SqliteTable(bool loss_columns, bool flushes = false);
void AddSqliteRow(text::Table& table, const model::SqliteEntry& entry,
                  const std::vector<sqlite_bench::CrashsimResult>* crashsim, TableNotes& notes,
                  bool flushes = false);
void PrintSqliteNotes(const TableNotes& notes, bool loss_columns, std::ostream& out);

// cite_drift: the target has a latency_drift finding, which the rows' notes may then cite.
void PrintSqliteTable(const std::vector<model::SqliteEntry>& entries,
                      const std::vector<sqlite_bench::CrashsimResult>& crashsim, std::ostream& out,
                      bool cite_drift = false);

}  // namespace durprobe::render::console
