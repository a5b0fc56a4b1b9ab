// The fleet view (`durprobe summarize`): one row per host and path from many saved reports.
// Rows are built one report at a time from the report model (saved reports are read with the
// typed reader, codec::FromJson), so memory is bounded by the rows, not by the reports.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "model/report.h"

namespace durprobe::explain {

struct SummaryRow {
  std::string host, path, fstype, device, started_at, file;
  std::string sync_probe;  // which probe the latencies come from: "fdatasync preallocated 2300"
  std::optional<double> sync_p50_ns, sync_p99_ns;
  std::optional<double> commits_wal_full, commits_delete_full;  // single-row commits/s
  std::vector<std::string> failed_rules;        // checks that failed or could not be measured
  std::vector<std::string> findings;            // warn and fail finding codes
  std::optional<model::DurabilityVerdict> durability;  // the path's verdict; unset: unknown
  bool fail_finding = false;                    // a fail-level finding is among the findings
};

// summarize's document: the rows, sorted, as the reporters write them (console table, CSV,
// durprobe.summary/1 JSON).
struct Summary {
  std::vector<SummaryRow> rows;
};

// The rows of one report (one per target). What a report from an older durprobe lacks (a sync
// latency, a percentile written as null, SQLite rows, checks) stays unset.
std::vector<SummaryRow> RowsFromReport(const model::Report& report, const std::string& file);

// The row orders of --sort. kWorst (the default) puts failed rules first, then a not_durable path
// or a fail-level finding, then warnings (more first), then the slowest sync p99; kFailed failed
// rules first, then the slowest sync p99. A p99 not measured (too few operations) sorts by the
// row's p50, the floor under it; only a row with neither sorts last.
enum class SummarySort {
  kWorst,
  kHost,
  kPath,
  kSyncP50,
  kSyncP99,
  kCommitsWalFull,
  kCommitsDeleteFull,
  kFailed,
};
// The last enumerator, up to which NameOf's table is counted: one added after it moves this.
inline constexpr SummarySort kLastSummarySort = SummarySort::kFailed;
// "worst", "host", "path", "sync_p50", "sync_p99", "commits_wal_full", "commits_delete_full",
// "failed"
std::string_view NameOf(SummarySort key);
// Every SummarySort's name, in its order, for --sort.
const std::vector<std::string>& SummarySortKeys();
// Sorts rows by key (descending for latencies and failures, ascending for commit rates, host and
// path), ties broken by host then path.
void SortRows(std::vector<SummaryRow>& rows, SummarySort key);

}  // namespace durprobe::explain
