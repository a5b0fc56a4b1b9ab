// `durprobe check`'s plan: what its policy's rules read (their probes, concurrency cells,
// SQLite configurations, durprobe faults for fsync_error_reported) within the budget, and the
// background load to run beside them. The split itself is run/check_plan.h's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gate/policy.h"
#include "platform/platform.h"
#include "platform/status.h"
#include "probes/background_load.h"
#include "run/plan.h"
#include "run/requests.h"

namespace durprobe::run {

// "READS,WRITES" per second (--background-load), e.g. "200,100"; InvalidArgument naming the
// text when it is not two rates of 0 or more, not both 0, at most 1e6 together.
Result<probes::LoadRates> ParseLoad(const std::string& text);

// What --writers and the policy's concurrency rules ask together (the rules' writer counts,
// modes, primitive and size); not asked when neither does.
Result<WritersRequest> CheckWriters(const WritersRequest& asked, const gate::Policy& policy);

struct CheckCommandPlan {
  Plan plan;
  std::optional<probes::LoadRates> load;  // beside the rules on each path; nullopt: none
};

// The plan for policy on paths. dry_run: the crash device is not required to exist (nothing
// runs). InvalidArgument with one line for bad input: a budget, a load, writers, a write larger
// than the probe file, or fsync_error_reported without the crash device.
Result<CheckCommandPlan> MakeCheckPlan(platform::Platform& platform,
                                       const std::vector<std::string>& paths,
                                       const gate::Policy& policy, const CheckRequest& request,
                                       const BudgetRequest& budget, bool dry_run);

}  // namespace durprobe::run
