// `durprobe watch --prometheus FILE`: the window's syncs in node_exporter's textfile format, per
// command name and file kind (a file's path would make a series per journal ever created): the
// sync latency histogram (the reports' bucket bounds), syncs and bytes synced, and each SQLite
// database's inferred durability. Formats only.
#pragma once

#include <ostream>

#include "model/watch.h"

namespace durprobe::render::prometheus {

void WriteWatchPrometheus(const model::WatchReport& report, std::ostream& out);

}  // namespace durprobe::render::prometheus
