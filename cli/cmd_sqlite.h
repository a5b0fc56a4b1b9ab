// `durprobe sqlite PATH...`: the SQLite commit matrix, counted at the VFS and explained by the
// few probes it needs (measured here unless --no-probes). Also the matrix options `run` shares.
#pragma once

#include <string>
#include <vector>

#include "cli/cmd_crashsim.h"
#include "cli/cmd_probe.h"
#include "cli/sqlite_workloads_options.h"
#include "cli/standard_options.h"
#include "cli/subcommand.h"
#include "model/report.h"
#include "run/requests.h"

namespace durprobe::cli {

// The sqlite request (run/requests.h), with the paths and the common options.
struct SqliteOptions : run::SqliteRequest {
  std::vector<std::string> paths{"."};
  CommonOptions common;
};

// Adds --journal-modes, --synchronous, --all, --batch, --statement, --payload, --repetitions,
// --commits and --warmup.
void AddSqliteMatrixOptions(CLI::App& app, run::SqliteMatrixRequest& options);
// Exit status 1 when a configuration or workload failed (checksum mismatch, SQLite error), each
// named on stderr; else 0.
int FailedConfigurations(const model::Report& report);

Subcommand SetupSqlite(CLI::App& app);
int RunSqlite(const SqliteOptions& options);

}  // namespace durprobe::cli
