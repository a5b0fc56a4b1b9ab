// Check's second look at a timing rule the run left unstable by its drift (gate/drift_range.h):
// the probe behind it is measured again, with a sample of the reference probe before and after,
// at most kMaxRemeasures times and each within what is left of the budget. A re-measure during
// which the device held steady decides the rule (judged by the same rules on that re-measure
// alone); otherwise the rule stays unstable and says how many re-measures were tried and why
// none decided (docs/provisioning.md, "Unstable rules").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gate/policy.h"
#include "model/report.h"
#include "platform/platform.h"
#include "probes/probe_ops.h"
#include "probes/timed_loop.h"
#include "run/check_plan.h"

namespace durprobe::run {

inline constexpr std::uint32_t kMaxRemeasures = 2;
// A re-measure is tried only with at least this much of the budget for it: less would not
// reach the operations a p99 rests on at a slow device's few ms a sync.
inline constexpr std::uint64_t kMinRemeasureNs = 200'000'000;

struct RemeasurePlan {
  probes::StopRule rule;  // check's probes' (CheckProbeRule); each re-measure is cut to its share
  probes::OpOptions op_options;
  std::uint64_t deadline_ns = 0;  // when the budget ends on the platform's clock; 0: no budget
};

// One re-measure of a probe: the probe and the reference samples taken before and after it
// (those that could be measured), on a clock of its own; a failed reference sync's finding.
struct Remeasure {
  probes::ProbeResult probe;
  std::vector<model::ReferenceSample> reference;
  std::vector<model::Finding> findings;
};

// Whether the device held steady within m: both reference samples were taken, their levels are
// not the drift thresholds apart (analysis/drift.h Drifted), and the probe's own series has no
// step. Unsteady says why not, in words ("the reference probe 950 us before it, 3.23 ms after"),
// and is empty when it held steady.
bool SteadyWithin(const Remeasure& m);
std::string Unsteady(const Remeasure& m);

// The rules of report.checks that the drift left unstable (drift_low set) and that read a probe
// (latency and rate rules), judged again: each such rule's probe is re-measured on its path (one
// re-measure serves every rule on that probe) as the header says. Returns those rules' results,
// each with remeasured set to the re-measures tried; the others are not returned.
std::vector<model::CheckResult> RemeasureUnstable(platform::Platform& platform,
                                                  const gate::Policy& policy,
                                                  const RemeasurePlan& plan, model::Report& report);

// Check's verdict on a measured report: the policy evaluated, the rules the drift left unstable
// re-measured (while the background load still runs beside them), then the load stopped and
// its findings added before the rules are read for good.
void JudgeCheck(platform::Platform& platform, const gate::Policy& policy, const RemeasurePlan& plan,
                BackgroundLoads& loads, model::Report& report);

}  // namespace durprobe::run
