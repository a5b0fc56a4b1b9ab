// What the executor's two schedules (run/plan.h Schedule: run/path_by_path.h, run/interleaved.h)
// run on. The steps they share are in run/executor.h; the reference probe and the rebasing of
// results to the run's start are in run/reference.h.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "platform/platform.h"
#include "platform/scratch.h"
#include "report/model/report.h"
#include "report/model/run_events.h"
#include "run/plan.h"
#include "run/progress.h"

namespace durprobe::run {

struct RunState {
  platform::Platform& platform;
  const Plan& plan;
  report::RunListener& listener;
  Progress& progress;
  report::Report& report;
  std::vector<std::unique_ptr<platform::ScratchDir>>& scratch;  // one per path, when measuring
  std::uint64_t origin_ns = 0;  // the run's start: results are rebased to it (run/reference.h)
};

}  // namespace durprobe::run
