// The processes other than durprobe that wrote while a run measured: /proc/PID/io read before
// and after it (platform/proc_io.h), durprobe's own process and its children left out. The
// neighbour a report names beside the flushes its device counted in the idle slices
// (analysis/neighbours.h).
#pragma once

#include <cstddef>
#include <vector>

#include "model/report.h"
#include "platform/platform.h"
#include "platform/proc_io.h"

namespace durprobe::run {

// How many writers a report names.
inline constexpr std::size_t kNamedWriters = 3;

platform::ProcessIoSnapshot WritersBefore(platform::Platform& platform);

// The kNamedWriters processes that wrote the most bytes since before (a process new since then
// counts from 0), none of them durprobe or its children; only those that wrote.
std::vector<model::Writer> TopWriters(const platform::ProcessIoSnapshot& before,
                                      const platform::ProcessIoSnapshot& after);

}  // namespace durprobe::run
