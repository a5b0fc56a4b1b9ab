// The commit matrix as a terminal table, one row per configuration, like the seeds' tables.
// Formats only: every number comes from the entries.
#pragma once

#include <ostream>
#include <vector>

#include "report/report.h"
#include "report/sqlite_model.h"

namespace durprobe::report {

// findings: the path's findings, which decide whether SQLite's documented power-loss guarantee
// holds there (report/durability_risk.h).
void PrintSqliteTable(const std::vector<SqliteEntry>& entries, const std::vector<Finding>& findings,
                      std::ostream& out);

}  // namespace durprobe::report
