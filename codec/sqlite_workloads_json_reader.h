// The reader of a saved report's SQLite workloads beyond commits (the writer is
// codec/sqlite_workloads_json.h).
#pragma once

#include "codec/json_fields.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::codec {

// The target's sqlite_workloads array.
sqlite_bench::WorkloadResults ReadWorkloads(const JsonFields& target);

}  // namespace durprobe::codec
