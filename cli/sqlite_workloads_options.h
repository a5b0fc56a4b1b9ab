// The `durprobe sqlite` options for the workloads beyond the commit matrix (--workloads,
// --threads, --processes, --write-share) and the plan they make.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "platform/status.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::cli {

// "commits" names the commit matrix, so it can run beside the workloads; "all" is every
// workload of sqlite_bench/workloads.h (not the matrix).
inline constexpr const char* kCommitsWorkload = "commits";

struct SqliteWorkloadOptions {
  std::vector<std::string> workloads;  // lower-case names; empty: only the commit matrix
  std::uint32_t threads = 10;
  std::uint32_t processes = 4;
  std::string write_share = "1/3";
};

void AddSqliteWorkloadOptions(CLI::App& app, SqliteWorkloadOptions& options);

// Whether the commit matrix runs: no --workloads at all, or "commits" among them.
bool RunsCommitMatrix(const SqliteWorkloadOptions& options);

// The workloads selected (in run order) with their options; an empty plan when none is.
Result<sqlite_bench::WorkloadPlan> MakeWorkloadPlan(const SqliteWorkloadOptions& options,
                                                    std::uint64_t budget_ns);

// "1/3", "0.25", "25%": a share in [0, 1].
Result<double> ParseShare(const std::string& text);

}  // namespace durprobe::cli
