// The console's concurrency section: the concurrent-syncers table (targets[].concurrency[]) and
// the serial-versus-concurrent line (targets[].serial_vs_concurrent). Only formats.
#pragma once

#include <ostream>

#include "model/report.h"

namespace durprobe::report {

// Prints nothing when the target has neither.
void PrintConcurrency(const Target& target, std::ostream& out);

}  // namespace durprobe::report
