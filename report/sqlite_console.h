// The commit matrix as a terminal table, one row per configuration, like the seeds' tables.
// Formats only: every number comes from the entries.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "report/sqlite_model.h"
#include "sqlite_bench/crashsim_result.h"

namespace durprobe::report {

// The table a row at a time, for the live console: header, rows (collecting notes), notes and
// the legend. With loss columns (crashsim ran on the same path), rows whose configuration
// crashsim ran show its loss and corruption counts next to the speed columns.
void PrintSqliteHeader(bool loss_columns, std::ostream& out);
// crashsim: null without loss columns.
void PrintSqliteRow(const SqliteEntry& entry,
                    const std::vector<sqlite_bench::CrashsimResult>* crashsim,
                    std::vector<std::string>& notes, std::ostream& out);
void PrintSqliteNotes(const std::vector<std::string>& notes, bool loss_columns,
                      std::ostream& out);

void PrintSqliteTable(const std::vector<SqliteEntry>& entries,
                      const std::vector<sqlite_bench::CrashsimResult>& crashsim,
                      std::ostream& out);

}  // namespace durprobe::report
