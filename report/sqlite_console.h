// The commit matrix as a terminal table, one row per configuration, like the seeds' tables.
// Formats only: every number comes from the entries.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "report/sqlite_model.h"

namespace durprobe::report {

// The table a row at a time, for the live console: header, rows (collecting notes), notes and
// the legend.
void PrintSqliteHeader(std::ostream& out);
void PrintSqliteRow(const SqliteEntry& entry, std::vector<std::string>& notes, std::ostream& out);
void PrintSqliteNotes(const std::vector<std::string>& notes, std::ostream& out);

void PrintSqliteTable(const std::vector<SqliteEntry>& entries, std::ostream& out);

}  // namespace durprobe::report
