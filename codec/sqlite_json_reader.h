// The reader of a saved report's SQLite rows and build facts (the writer is
// codec/sqlite_json.h).
#pragma once

#include "codec/json_fields.h"
#include "model/sqlite_model.h"
#include "sqlite_bench/build_info.h"

namespace durprobe::codec {

model::SqliteEntry ReadSqliteEntry(const JsonFields& f);
sqlite_bench::SqliteBuildInfo ReadSqliteBuild(const JsonFields& f);

}  // namespace durprobe::codec
