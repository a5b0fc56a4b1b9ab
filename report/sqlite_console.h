// The commit matrix as a terminal table, one row per configuration, like the seeds' tables.
// Formats only: every number comes from the entries.
#pragma once

#include <ostream>
#include <vector>

#include "report/sqlite_model.h"
#include "sqlite_bench/crashsim_result.h"

namespace durprobe::report {

// With crashsim results for the same path, rows whose configuration crashsim ran gain its loss
// and corruption counts next to the speed columns.
void PrintSqliteTable(const std::vector<SqliteEntry>& entries,
                      const std::vector<sqlite_bench::CrashsimResult>& crashsim,
                      std::ostream& out);

}  // namespace durprobe::report
