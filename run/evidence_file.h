// `--evidence FILE` on run, check and inspect: a power-cut test's evidence file
// (`durprobe powercut verify --save-evidence`, docs/powercut.md) read into the plan, so each
// path's device layer hears of it (analysis/powercut_verdict.h decides whether it applies).
#pragma once

#include <string>

#include "platform/platform.h"
#include "platform/status.h"
#include "run/plan.h"

namespace durprobe::run {

// Reads file (when given) into plan.powercut_evidence; InvalidArgument naming the file and what
// is wrong with it: a file another local user could have planted or changed
// (platform::ReadOwnedFile), or one that is no evidence or contradicts itself
// (codec::ParsePowercutEvidence).
Status LoadEvidence(platform::Platform& platform, const std::string& file, Plan& plan);

}  // namespace durprobe::run
