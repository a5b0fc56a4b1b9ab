// The factory that picks a reporter per format: the driver's (as Google Benchmark's
// CreateReporter sits in benchmark.cc), above every format, so the Reporter interface
// (render/reporter.h) knows none of them.
#pragma once

#include <memory>

#include "render/reporter.h"

namespace durprobe::report {

// The reporter for a format: one line per format.
std::unique_ptr<Reporter> MakeReporter(Format format);

}  // namespace durprobe::report
