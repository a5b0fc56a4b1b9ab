// The settings to use on a path for SQLite, PostgreSQL and etcd, each citing the measurement it
// rests on (issue 22, point 2); explain/path_summary.h sets them on a target with its summary.
#pragma once

#include <vector>

#include "model/report.h"

namespace durprobe::explain {

// The settings to use on that target, in the order sqlite, postgresql, etcd, from its summary
// (explain/path_summary.h SummarizePath: the advice reads it, not the other way round).
std::vector<model::PathAdvice> AdviseTarget(const model::Target& target,
                                            const model::PathSummary& summary);

}  // namespace durprobe::explain
