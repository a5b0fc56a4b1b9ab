// The answer first (issue 22, points 1 and 2): per path, what it is, whether it keeps data, what
// a durable write costs, which SQLite setting to use and what it risks, the findings that matter
// most and the next step; and the settings to use for SQLite, PostgreSQL and etcd, each citing
// the measurement it rests on. Decided here, from the finished target; every format prints the
// result as decided (docs/start.md).
#pragma once

#include <vector>

#include "model/report.h"

namespace durprobe::explain {

// The summary of one finished target (its durability read from target.durability, "durability
// not assessed" when unset).
model::PathSummary SummarizePath(const model::Target& target);
// Sets target.summary and target.advice (explain/path_advice.h); a target with nothing measured
// gets none.
void AddPathSummary(model::Target& target);
// Every target of the report.
void AddPathSummaries(model::Report& report);

}  // namespace durprobe::explain
