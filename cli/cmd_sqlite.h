// `durprobe sqlite PATH...`: the SQLite commit matrix, counted at the VFS and explained by the
// few probes it needs (measured here unless --no-probes). Also the matrix options `run` shares.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cli/cmd_crashsim.h"
#include "cli/cmd_probe.h"
#include "cli/sqlite_workloads_options.h"
#include "cli/standard_options.h"
#include "cli/subcommand.h"
#include "model/report.h"
#include "platform/platform.h"
#include "sqlite_bench/commit_bench.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::cli {

struct SqliteMatrixOptions {
  std::vector<std::string> journal_modes;  // lower-case names; empty: DELETE, WAL
  std::vector<std::string> synchronous;    // empty: FULL, NORMAL, OFF
  bool all = false;
  std::vector<std::string> batches{"1"};
  std::vector<std::string> statements{"reused"};
  std::string payload = "100";
  std::uint32_t repetitions = 5;
  std::uint64_t commits = 0;  // fixed commits per repetition (0: by budget)
  std::uint64_t warmup = 20;
};

struct SqliteOptions {
  std::vector<std::string> paths{"."};
  SqliteMatrixOptions matrix;
  SqliteWorkloadOptions workloads;
  bool no_probes = false;
  bool crashsim = false;  // simulated power cuts for the same configurations, after the matrix
  CrashsimCliOptions crashsim_options;
  CommonOptions common;
};

// Adds --journal-modes, --synchronous, --all, --batch, --statement, --payload, --repetitions,
// --commits and --warmup.
void AddSqliteMatrixOptions(CLI::App& app, SqliteMatrixOptions& options);
// The matrix part of a plan, with budget_ns shared over its configurations.
Result<sqlite_bench::MatrixPlan> MakeSqlitePlan(platform::Platform& platform,
                                                const SqliteMatrixOptions& options,
                                                std::uint64_t budget_ns);
// The probes the correlation needs: SQLite's sync primitive at 4 KiB overwrite and append, and
// dir_fsync after create.
probes::ProbePlan CorrelationProbePlan(platform::Platform& platform, std::uint64_t budget_ns);

// Exit status 1 when a configuration or workload failed (checksum mismatch, SQLite error), each
// named on stderr; else 0.
int FailedConfigurations(const report::Report& report);

Subcommand SetupSqlite(CLI::App& app);
int RunSqlite(const SqliteOptions& options);

}  // namespace durprobe::cli
