// --writers LIST (probe, run, check, compare): concurrent syncers and the queue-depth run. The
// plan part they make is run/'s (run/writers_plan.h).
#pragma once

#include <CLI/CLI.hpp>

#include "run/requests.h"

namespace durprobe::cli {

// Adds --writers, --writers-modes and --writers-primitive to app.
void AddWritersOptions(CLI::App& app, run::WritersRequest& options);

}  // namespace durprobe::cli
