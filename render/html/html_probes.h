// The HTML page's probe section and what the other sections draw probes with: tick text, a
// probe's name, its CDF. They only format: every number comes from the report model.
#pragma once

#include <string>
#include <vector>

#include "probes/probe_result.h"
#include "render/html/svg_plot.h"

namespace durprobe::render::html {

// Tick and tooltip text.
std::string NanosTick(double ns);       // "1 us", "20 ms"
std::string PercentTick(double share);  // 0.5 -> "50%"

// A probe's name in legends and tables: "fdatasync overwrite 4 KiB", "dir_fsync create".
std::string ProbeName(const probes::ProbeResult& r);

// The CDF of a probe's histogram as a series: (bucket bound, share at or below it), marks at
// the median, p90, p99 and p99.9. Empty points when the probe kept no histogram.
svg::Series CdfSeries(const probes::ProbeResult& r, const std::string& name);

// Probes: a table of every result, a latency CDF per pattern (every primitive, the plain write
// as a reference line) and a write-size sweep when several sizes were measured. id_prefix makes
// the plots' ids unique in the page.
std::string ProbeSection(const std::vector<probes::ProbeResult>& results,
                         const std::string& id_prefix);

}  // namespace durprobe::render::html
