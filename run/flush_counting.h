// Where a target's flushes are counted: the devices its identification names
// (platform::DevicesToCount), for the probes, the SQLite configurations and the concurrency
// cells measured on it (probes/flush_tally.h).
#pragma once

#include "model/report.h"
#include "platform/platform.h"
#include "probes/flush_tally.h"

namespace durprobe::run {

// Unavailable, with the reason, when the target was not identified; nothing to count (no
// device_flushes in the report) when the plan counts no flushes.
probes::FlushCounting CountingFor(platform::Platform& platform, const model::Target& target,
                                  bool count_flushes);

}  // namespace durprobe::run
