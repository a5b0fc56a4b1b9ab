// The summary's phrases that the console and HTML print alike (model/path_summary_model.h
// holds the decisions; these only word them).
#pragma once

#include <string>

#include "model/path_summary_model.h"

namespace durprobe::render {

// "WAL/FULL x1 573 commits/s (7.66x the default)"; the ratio only when asked and known.
std::string SettingText(const model::SummarySetting& s, bool with_ratio);
// "fdatasync overwrite 4 KiB: p50 49.5 us, p99 8.01 ms; at most 1,713 synced writes/s from one
// writer (measured)", or "not measured (no sync probe ran)".
std::string SyncCostText(const model::PathSummary& s);

}  // namespace durprobe::render
