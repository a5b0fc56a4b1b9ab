// JSON for the SQLite part of the report: targets[].sqlite[] entries (the contract keys of
// docs/json.md plus the detail behind them) and the SQLite build facts for the context block.
#pragma once

#include <nlohmann/json.hpp>

#include "model/report.h"
#include "model/sqlite_model.h"

namespace durprobe::codec {

// "risk" is the entry's, as analysis/durability_risk.h decided it.
nlohmann::json ToJson(const model::SqliteEntry& entry);
nlohmann::json ToJson(const sqlite_bench::SqliteBuildInfo& info);

}  // namespace durprobe::codec
