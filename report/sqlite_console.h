// The commit matrix as a terminal table, one row per configuration, like the seeds' tables.
// Formats only: every number comes from the entries.
#pragma once

#include <ostream>
#include <vector>

#include "report/sqlite_model.h"

namespace durprobe::report {

void PrintSqliteTable(const std::vector<SqliteEntry>& entries, std::ostream& out);

}  // namespace durprobe::report
