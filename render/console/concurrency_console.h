// The console's concurrency section: the concurrent-syncers table (targets[].concurrency[]) and
// the serial-versus-concurrent line (targets[].serial_vs_concurrent). Only formats.
#pragma once

#include <ostream>

#include "model/report.h"

namespace durprobe::render::console {

// Prints nothing when the target has neither.
void PrintConcurrency(const model::Target& target, std::ostream& out);

}  // namespace durprobe::render::console
