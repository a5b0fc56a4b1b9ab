// The `durprobe sqlite` options for the workloads beyond the commit matrix (--workloads,
// --threads, --processes, --write-share); the plan they make is run/'s (run/plan_parts.h).
#pragma once

#include <CLI/CLI.hpp>

#include "run/requests.h"

namespace durprobe::cli {

void AddSqliteWorkloadOptions(CLI::App& app, run::SqliteWorkloadRequest& options);

}  // namespace durprobe::cli
