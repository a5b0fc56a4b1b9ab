// The HTML page's SQLite section and what the timeline shares with it: a configuration's name,
// a repetition's place in the run, and series drawn over the run. They only format: every number
// comes from the report model.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/sqlite_model.h"
#include "sqlite_bench/commit_result.h"

namespace durprobe::render::html {

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
std::string SqliteSection(const std::vector<model::SqliteEntry>& entries,
                          const std::string& id_prefix);

}  // namespace durprobe::render::html
