// The watch document from a recording: each process's synced files with their kind, rate,
// latency and bytes per sync; each device's flushes against the syncs on it; and each SQLite
// database's inferred settings (analysis/watch_sqlite.h).
#pragma once

#include "model/watch.h"

namespace durprobe::analysis {

model::WatchReport BuildWatchReport(const model::WatchRecording& recording);

}  // namespace durprobe::analysis
