// The crashtest phase on one path: the filesystem to make on the crash device (the path's own,
// or the one the command line names), the configurations run on it, and how each compares with
// crashsim's model where crashsim ran the same configuration.
#pragma once

#include "model/report.h"
#include "platform/crash_device.h"
#include "platform/scratch.h"
#include "run/schedule.h"
#include "sqlite_bench/crashtest.h"

namespace durprobe::run {

// The filesystem crashtest makes for target: the plan's (--fs, --mount-options) where it names
// one, else the path's own, ext4 with its data= and barrier options, xfs or btrfs.
// InvalidArgument naming the path's filesystem when it is none of them.
Result<platform::FsSpec> CrashtestFsFor(const sqlite_bench::CrashtestOptions& options,
                                        const model::Target& target);

// Runs the plan's crashtest on target in its scratch directory, then sets each row's
// agreement with crashsim (analysis::CompareWithCrashsim). A path whose filesystem crashtest cannot
// make gets one error row per configuration, saying why. Configurations an interrupt left out
// are listed as unfinished.
void RunCrashtestOn(RunState& s, model::Target& target, platform::ScratchDir& scratch);

}  // namespace durprobe::run
