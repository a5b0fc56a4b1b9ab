// The power-cut commands' plans from their requests (run/requests.h): the witness's options,
// the writer's plan and the verifier's, each option checked before anything listens, writes or
// connects (InvalidArgument with the words to print), and what --dry-run prints of each.
// Unit-tested in tests/run/powercut_plans_test.cc.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "platform/status.h"
#include "run/powercut_run.h"
#include "run/powercut_verify.h"
#include "run/powercut_witness.h"
#include "run/requests.h"

namespace durprobe::run {

Result<WitnessOptions> MakeWitnessOptions(const PowercutWitnessRequest& request);
// path: resolved (run/target_paths.h ResolveTargets).
Result<PowercutWritePlan> MakePowercutWritePlan(const std::string& path,
                                                const PowercutWriteRequest& request);
Result<PowercutVerifyPlan> MakePowercutVerifyPlan(const std::string& path,
                                                  const PowercutVerifyRequest& request);

// What the writer commits per record: "wal/full" style for SQLite (PowercutSqliteMode), else
// MODE:PRIMITIVE ("file:fdatasync", "append:fsync").
std::string PowercutWriteMode(const PowercutWritePlan& plan);

// --dry-run: the plan as JSON, nothing started.
nlohmann::json WitnessDryRun(const WitnessOptions& options);
nlohmann::json PowercutWriteDryRun(const PowercutWritePlan& plan);
nlohmann::json PowercutVerifyDryRun(const PowercutVerifyPlan& plan,
                                    const std::string& save_evidence, const std::string& json);

}  // namespace durprobe::run
