// The plans of the two commands that run on the crash device, from their requests
// (run/requests.h): `durprobe crashtest` (crashsim's configurations, a filesystem made on the
// device, and crashsim beside it for the comparison) and `durprobe faults` (the filesystems to
// make). Each refuses, before anything runs, what the device cannot do here; unit-tested in
// tests/run/crash_plans_test.cc.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"
#include "platform/status.h"
#include "run/plan.h"
#include "run/requests.h"
#include "sqlite_bench/crashtest.h"

namespace durprobe::run {

// The crashtest plan for paths. InvalidArgument, with the words to print, for options that do
// not go together (--mount-options without --fs, --state for several configurations, --log
// without --state or not a reported log), a --state that does not parse, or a path whose
// filesystem the device cannot make; and, unless dry_run, when the device cannot run here (root,
// /dev/fuse, loop devices).
Result<Plan> MakeCrashtestPlan(platform::Platform& platform, const std::vector<std::string>& paths,
                               const CrashtestRequest& request, bool dry_run);

// The faults plan for paths, refused as MakeCrashtestPlan's is: --mount-options without a
// filesystem, a filesystem the device does not make, the device missing (unless dry_run).
Result<Plan> MakeFaultsPlan(platform::Platform& platform, const std::vector<std::string>& paths,
                            const FaultsRequest& request, bool dry_run);

// Whether the crash device can make each path's filesystem (the options' fs, else the path's
// own): the first path it cannot, named.
Status CrashDeviceMakesEach(platform::Platform& platform, const std::vector<std::string>& paths,
                            const sqlite_bench::CrashtestOptions& options);

}  // namespace durprobe::run
