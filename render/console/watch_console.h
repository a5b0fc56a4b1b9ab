// `durprobe watch`'s console text: the window, each file's syncs (kind, rate, latency, bytes per
// sync), the devices' flushes against them, and what each SQLite database's pattern means.
// Formats only: the kinds and the inference are analysis/watch_*.h's. Plain lines, so a pipe
// gets the same text; a table fits the stream's LineWidth when one is set.
#pragma once

#include <ostream>
#include <string>

#include "model/watch.h"

namespace durprobe::render::console {

void PrintWatch(const model::WatchReport& report, std::ostream& out);

// The line watch prints on stderr once it observes: what and for how long.
std::string WatchBanner(const std::vector<int>& pids, const std::string& comm,
                        const std::string& path, double seconds);

}  // namespace durprobe::render::console
