// The report model: what one durprobe run found, per target path. Measurement rooms fill it;
// reporters (console, JSON, ...) only format it; analysis adds findings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/mount_info.h"
#include "probes/op_cost.h"
#include "probes/probe_result.h"
#include "report/sqlite_model.h"
#include "sqlite_bench/crashsim_result.h"
#include "sqlite_bench/workload_result.h"

namespace durprobe::report {

inline constexpr const char* kReportSchema = "durprobe.report/1";

struct Context {
  std::string durprobe_version;
  std::string host, os, kernel, machine;
  std::string sqlite_version;
  std::string build_type;
  bool optimized = true;
  bool assertions = false;
  std::string started_at;  // ISO-8601, UTC
  std::string command;     // the subcommand that produced the report
  sqlite_bench::SqliteBuildInfo sqlite_build;
  std::string ld_preload;  // $LD_PRELOAD: a preloaded library can change what a sync does
  std::string command_line;  // argv as the user typed it, shell-quoted where needed
  bool interrupted = false;  // SIGINT/SIGTERM arrived: the report holds what finished before it
  int interrupt_signal = 0;  // which one (2 or 15) when interrupted
};

enum class Severity { kInfo, kWarn, kFail };
std::string_view NameOf(Severity s);

struct Finding {
  Severity severity = Severity::kInfo;
  std::string code;     // stable snake_case
  std::string message;  // one plain sentence with what to do
};

struct Target {
  std::string path;  // absolute
  std::optional<platform::MountInfo> mount;  // set when the plan inspects (inspect, run)
  std::vector<probes::ProbeResult> probes;
  std::vector<probes::OpCostResult> op_costs;  // per-operation costs, measured by compare
  std::vector<SqliteEntry> sqlite;  // the commit matrix (report/sqlite_correlation.h)
  sqlite_bench::WorkloadResults sqlite_workloads;  // read, connect, locks, concurrency, WAL growth
  std::vector<sqlite_bench::CrashsimResult> crashsim;  // simulated power cuts (crashsim)
  std::vector<Finding> findings;
};

struct Report {
  Context context;
  std::vector<Target> targets;
};

// Warnings about the build itself (unoptimised, assertions on), for every reporter to show.
std::vector<std::string> BuildWarnings(const Context& context);

}  // namespace durprobe::report
