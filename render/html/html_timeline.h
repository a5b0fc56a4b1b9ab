// The HTML page's flush latency timeline. It only formats: every number comes from the report
// model.
#pragma once

#include <string>

#include "model/report.h"

namespace durprobe::render::html {

// Flush latency over the run on one time axis: the reference probe's samples, the probe of the
// same kind window by window, SQLite's own mean sync latency per repetition, and marks where
// drift analysis found a step. Empty when fewer than two samples of any of them were kept (a
// report from before they were recorded). The plot's id is "<id_prefix>-timeline".
std::string TimelineSection(const model::Target& target, const std::string& id_prefix);

}  // namespace durprobe::render::html
