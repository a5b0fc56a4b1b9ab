// The concurrency phase (--writers): for every path, each writer count in each mode
// (probes/concurrency.h), then the queue-depth run (probes/queue_depth.h); with several paths
// (compare) each cell runs on every path in turn, so noise falls on all alike.
#pragma once

#include <cstdint>
#include <vector>

#include "model/report.h"
#include "run/plan.h"
#include "run/schedule.h"

namespace durprobe::run {

// targets[p] is measured in s.scratch[p]. Interrupted, what never started is listed in the
// target's unfinished items.
void RunConcurrencyPhase(RunState& s, const std::vector<model::Target*>& targets,
                         const std::vector<std::size_t>& scratch_index);

// Once the target's probes are in: the rows' scaling and the concurrency findings
// (analysis/concurrency_findings.h). Nothing when the phase did not run.
void FinishConcurrency(model::Target& target);

// Scratch the phase needs at most on one path: the largest cell's files or the queue-depth file.
std::uint64_t ConcurrencyScratchBytes(const ConcurrencyPlan& plan);

}  // namespace durprobe::run
