// The HTML reporter's sections, each a fragment of the page (escaped, well-formed). They only
// format: every number comes from the report model.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "report/format/html/svg_plot.h"
#include "report/model/report.h"

namespace durprobe::report::html {

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

// A configuration in plots and tables: "WAL/FULL x1" (+FF with fullfsync), with its statement
// mode ("WAL/FULL reused x1") when the entries mix them.
std::string ConfigName(const sqlite_bench::CommitResult& r, bool with_statement);

// The middle of a repetition, in seconds since the run started.
double MiddleSeconds(const sqlite_bench::Repetition& w);

// A quantity sampled over the run, drawn relative to its own median so that series of very
// different sizes share one axis: a flat line at 100% is a steady device, a dip (a rate) or a
// rise (a latency) is a disturbance. The SQLite repetitions feed it today; a drift series of the
// reference probe is one more RunSeries.
struct RunSeries {
  std::string name;
  std::string unit;                                // for tooltips: "commits/s", "ns"
  std::vector<std::pair<double, double>> samples;  // (position in the run, value)
};
std::string OverRunPlot(const std::string& id, const std::string& title, const std::string& x_label,
                        const std::vector<RunSeries>& series);

// SQLite: commit rate bars split into sync and non-sync time with syncs per commit, the
// batch-size sweep when present, the repetitions over the run, and a table.
std::string SqliteSection(const std::vector<SqliteEntry>& entries, const std::string& id_prefix);

// Flush latency over the run on one time axis: the reference probe's samples, the probe of the
// same kind window by window, SQLite's own mean sync latency per repetition, and marks where
// drift analysis found a step. Empty when fewer than two samples of any of them were kept (a
// report from before they were recorded). The plot's id is "<id_prefix>-timeline".
std::string TimelineSection(const Target& target, const std::string& id_prefix);

// For every probe measured on more than one of targets: one CDF with a line per target ("[1]
// PATH", "[2] PATH"), on the same axes. Plot ids are "<id_prefix>-cdf-<n>".
std::string CdfOverlays(const std::vector<Target>& targets, const std::string& id_prefix);

// One target: heading, mount and device table, findings, probes, SQLite.
std::string TargetSection(const Target& target, const std::string& id_prefix);

}  // namespace durprobe::report::html
