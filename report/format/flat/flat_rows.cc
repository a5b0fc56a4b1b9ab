#include "report/format/flat/flat_rows.h"

#include <fmt/format.h>

#include "report/analysis/sqlite_correlation.h"

namespace durprobe::report {
namespace {

std::string Int(std::uint64_t v) { return std::to_string(v); }

// A percentile the operation count supports, else empty (docs/json.md: p99 needs 100
// operations, p99.9 needs 1,000).
std::string TailCell(std::uint64_t value, std::uint64_t ops, std::uint64_t needed) {
  return ops >= needed ? Int(value) : std::string();
}

}  // namespace

std::string FlatNumber(double v) { return fmt::format("{:.6g}", v); }

const std::vector<std::string>& FlatColumns() {
  static const std::vector<std::string> columns = {
      "path",         "kind",        "primitive",        "pattern",         "write_size",
      "journal_mode", "synchronous", "rows_per_commit",  "status",          "ops",
      "per_sec",      "p50_ns",      "p90_ns",           "p99_ns",          "p999_ns",
      "max_ns",       "mean_ns",     "syncs_per_commit", "sync_time_share", "reason",
      "writes_per_op"};  // appended last, so the columns before it keep their places
  return columns;
}

std::vector<std::vector<std::string>> FlatRows(const std::vector<Target>& targets) {
  std::vector<std::vector<std::string>> rows;
  for (const Target& t : targets) {
    for (const probes::ProbeResult& r : t.probes) {
      const probes::LatencySummary& l = r.latency;
      bool measured = r.ops > 0;
      rows.push_back({t.path,
                      "probe",
                      std::string(probes::NameOf(r.spec.primitive)),
                      std::string(probes::NameOf(r.spec.pattern)),
                      Int(r.spec.write_size),
                      "",
                      "",
                      "",
                      std::string(probes::NameOf(r.outcome)),
                      Int(r.ops),
                      measured ? FlatNumber(r.ops_per_sec) : "",
                      measured ? Int(l.p50) : "",
                      measured ? Int(l.p90) : "",
                      TailCell(l.p99, r.ops, 100),
                      TailCell(l.p999, r.ops, 1000),
                      measured ? Int(l.max) : "",
                      measured ? FlatNumber(l.mean) : "",
                      "",
                      "",
                      r.reason,
                      Int(r.spec.writes_per_op)});
    }
    for (const SqliteEntry& e : t.sqlite) {
      const sqlite_bench::CommitResult& r = e.result;
      const probes::LatencySummary& l = r.latency;
      bool measured = r.commits > 0;
      rows.push_back({t.path,
                      "sqlite",
                      "",
                      "",
                      "",
                      std::string(sqlite_bench::NameOf(r.config.journal)),
                      std::string(sqlite_bench::NameOf(r.config.sync)),
                      Int(r.config.rows_per_commit),
                      std::string(probes::NameOf(r.outcome)),
                      Int(r.commits),
                      measured ? FlatNumber(r.commits_per_sec) : "",
                      measured ? Int(l.p50) : "",
                      measured ? Int(l.p90) : "",
                      TailCell(l.p99, r.commits, 100),
                      TailCell(l.p999, r.commits, 1000),
                      measured ? Int(l.max) : "",
                      measured ? FlatNumber(r.MeanCommitNs()) : "",
                      measured ? FlatNumber(SyncsOf(r).total) : "",
                      measured ? FlatNumber(r.SyncTimeShare()) : "",
                      r.reason,
                      ""});
    }
  }
  return rows;
}

}  // namespace durprobe::report
