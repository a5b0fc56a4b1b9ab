// The HTML page's concurrency section: aggregate synced operations per second against the number
// of writers, one line per mode with an ideal-scaling reference, a table of the rows, and the
// serial-versus-concurrent figures. Only formats.
#pragma once

#include <string>

#include "model/report.h"

namespace durprobe::render::html {

// "" when the target has no concurrency rows and no serial-versus-concurrent block.
std::string ConcurrencySection(const model::Target& t, const std::string& id_prefix);

}  // namespace durprobe::render::html
