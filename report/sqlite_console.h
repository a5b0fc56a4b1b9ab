// The commit matrix as a terminal table, one row per configuration, like the seeds' tables.
// Formats only: every number comes from the entries.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "report/console_reporter.h"
#include "report/report.h"
#include "report/sqlite_model.h"
#include "report/table.h"
#include "sqlite_bench/crashsim_result.h"

namespace durprobe::report {

// The table a row at a time, for the live console: the columns (with loss columns when crashsim
// ran on the same path), a row (collecting notes), then notes and the legend. findings are the
// path's: they decide whether SQLite's documented power-loss guarantee holds there
// (report/durability_risk.h). crashsim: null without loss columns.
Table SqliteTable(bool loss_columns);
void AddSqliteRow(Table& table, const SqliteEntry& entry, const std::vector<Finding>& findings,
                  const std::vector<sqlite_bench::CrashsimResult>* crashsim, TableNotes& notes);
void PrintSqliteNotes(const TableNotes& notes, bool loss_columns, std::ostream& out);

void PrintSqliteTable(const std::vector<SqliteEntry>& entries, const std::vector<Finding>& findings,
                      const std::vector<sqlite_bench::CrashsimResult>& crashsim, std::ostream& out);

}  // namespace durprobe::report
