// JSON for the SQLite part of the report: targets[].sqlite[] entries (the contract keys of
// DESIGN.md plus the detail behind them) and the SQLite build facts for the context block.
#pragma once

#include <nlohmann/json.hpp>

#include "report/report.h"
#include "report/sqlite_model.h"

namespace durprobe::report {

// findings: the path's, which decide the entry's "risk" (report/durability_risk.h).
nlohmann::json ToJson(const SqliteEntry& entry, const std::vector<Finding>& findings);
nlohmann::json ToJson(const sqlite_bench::SqliteBuildInfo& info);

}  // namespace durprobe::report
