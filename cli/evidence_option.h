// `--evidence FILE` on run, check and inspect: the option; run/evidence_file.h reads the file
// into the plan.
#pragma once

#include <string>

#include "cli/subcommand.h"

namespace durprobe::cli {

void AddEvidenceOption(CLI::App& app, std::string& file);

}  // namespace durprobe::cli
