// The report reader's parts, one per section of durprobe.report/1 (report/codec/json_reader.h holds
// the contract). Each reads from a JsonFields and records its first error there.
#pragma once

#include <initializer_list>

#include "platform/mount_info.h"
#include "probes/probe_result.h"
#include "probes/statistics.h"
#include "report/codec/json_fields.h"
#include "report/model/report.h"
#include "sqlite_bench/build_info.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::report {

// "status": ok (also when absent), unsupported, error, interrupted.
probes::Outcome ReadOutcome(const JsonFields& f);

// A latency_ns object; `required` lists the percentiles DESIGN.md's contract requires there.
probes::LatencySummary ReadLatency(const JsonFields& f,
                                   std::initializer_list<const char*> required = {});

platform::MountInfo ReadMount(const JsonFields& f);                  // mount_json_reader.cc
SqliteEntry ReadSqliteEntry(const JsonFields& f);                    // sqlite_json_reader.cc
sqlite_bench::SqliteBuildInfo ReadSqliteBuild(const JsonFields& f);  // sqlite_json_reader.cc
// The target's sqlite_workloads array (sqlite_workloads_json_reader.cc).
sqlite_bench::WorkloadResults ReadWorkloads(const JsonFields& target);

}  // namespace durprobe::report
