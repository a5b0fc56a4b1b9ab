// The SQLite workloads beyond commits as terminal tables, one per workload, laid out like the
// seeds' experiments. Formats only: every number comes from the results.
#pragma once

#include <ostream>

#include "sqlite_bench/workload_result.h"

namespace durprobe::render::console {

void PrintSqliteWorkloads(const sqlite_bench::WorkloadResults& results, std::ostream& out);

}  // namespace durprobe::render::console
