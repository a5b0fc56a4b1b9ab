#include "render/flat_rows.h"

#include <fmt/format.h>

#include "analysis/sqlite_correlation.h"
#include "model/percentiles.h"

namespace durprobe::render {
namespace {

std::string Int(std::uint64_t v) { return std::to_string(v); }

// A percentile the operation count supports (model/percentiles.h decides), else empty. The
// count is the row's own (its ops or commits), the figure the row prints beside it.
std::string TailCell(double q, std::uint64_t value, std::uint64_t count) {
  return model::PercentileSupported(q, count) ? Int(value) : std::string();
}

}  // namespace

std::string FlatNumber(double v) { return fmt::format("{:.6g}", v); }

const std::vector<std::string>& FlatColumns() {
  static const std::vector<std::string> columns = {
      "path",
      "kind",
      "primitive",
      "pattern",
      "write_size",
      "journal_mode",
      "synchronous",
      "rows_per_commit",
      "status",
      "ops",
      "per_sec",
      "p50_ns",
      "p90_ns",
      "p99_ns",
      "p999_ns",
      "max_ns",
      "mean_ns",
      "syncs_per_commit",
      "sync_time_share",
      "reason",
      "writes_per_op",  // appended after the others, so the columns before keep their places
      "crash_trials",
      "crash_corrupt",
      "crash_trials_with_loss",
      "crash_lost_max",
      "crash_lost_mean",
      "paced_per_sec",  // a probe's pace or work between operations, empty when it has none
      "work_us",
      "work_round_trips",
      "flush_per_op",  // a probe's device flushes per operation, empty when not counted
      "crash_device",  // crashtest rows: the crash device's cache, distinct states, agreement
      "crash_distinct",
      "crash_agrees_with_crashsim",
      "fs_options",  // faults rows (kind fsync_error and sqlite_sync_failure)
      "fault_sync",
      "fault_write",
      "fault_first_sync",
      "fault_retry_sync",
      "fault_other_fd_sync",
      "fault_reporting",
      "fault_page_cached",
      "fault_page_evicted",
      "fault_page_on_disk",
      "fault_size",
      "fault_size_after_remount",
      "fault_fs_after",
      "fault_remount_ok",
      "fault_retry",
      "fault_commit",
      "fault_reopened",
      "fault_rows_reopened",
      "fault_after_remount",
      "fault_rows_after_remount"};
  return columns;
}

std::vector<std::vector<std::string>> FlatRows(const std::vector<model::Target>& targets) {
  std::vector<std::vector<std::string>> rows;
  for (const model::Target& t : targets) {
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
                      TailCell(0.9, l.p90, r.ops),
                      TailCell(0.99, l.p99, r.ops),
                      TailCell(0.999, l.p999, r.ops),
                      measured ? Int(l.max) : "",
                      measured ? FlatNumber(l.mean) : "",
                      "",
                      "",
                      r.reason,
                      Int(r.spec.writes_per_op)});
      rows.back().resize(FlatColumns().size());
      if (r.spec.paced_per_sec > 0) rows.back()[26] = Int(r.spec.paced_per_sec);
      if (r.spec.work_us > 0) rows.back()[27] = Int(r.spec.work_us);
      if (r.spec.work_round_trips > 0) rows.back()[28] = Int(r.spec.work_round_trips);
      if (r.device_flushes.ok()) rows.back()[29] = FlatNumber(r.device_flushes.PerOp());
    }
    for (const model::SqliteEntry& e : t.sqlite) {
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
                      TailCell(0.9, l.p90, r.commits),
                      TailCell(0.99, l.p99, r.commits),
                      TailCell(0.999, l.p999, r.commits),
                      measured ? Int(l.max) : "",
                      measured ? FlatNumber(r.MeanCommitNs()) : "",
                      measured ? FlatNumber(analysis::SyncsOf(r).total) : "",
                      measured ? FlatNumber(r.SyncTimeShare()) : "",
                      r.reason,
                      ""});
      rows.back().resize(FlatColumns().size());
    }
    // crashsim: one row per configuration, its trials as ops and its losses in the crash_ cells.
    for (const sqlite_bench::CrashsimResult& r : t.crashsim) {
      std::vector<std::string> row(FlatColumns().size());
      row[0] = t.path;
      row[1] = "crashsim";
      row[5] = sqlite_bench::NameOf(r.config.journal);
      row[6] = sqlite_bench::NameOf(r.config.sync);
      row[7] = Int(r.config.rows_per_commit);
      row[8] = probes::NameOf(r.outcome);
      row[9] = Int(r.trials);
      row[19] = r.reason;
      row[21] = Int(r.trials);
      row[22] = Int(r.corrupt);
      row[23] = Int(r.trials_with_loss);
      row[24] = Int(r.lost_commits_max);
      row[25] = FlatNumber(r.lost_commits_mean);
      rows.push_back(std::move(row));
    }
    // crashtest: one row per configuration, its states as ops and trials, the filesystem in
    // primitive's place.
    for (const sqlite_bench::CrashtestResult& r : t.crashtest) {
      std::vector<std::string> row(FlatColumns().size());
      row[0] = t.path;
      row[1] = "crashtest";
      row[2] = r.fs;
      row[5] = sqlite_bench::NameOf(r.config.journal);
      row[6] = sqlite_bench::NameOf(r.config.sync);
      row[7] = Int(r.config.rows_per_commit);
      row[8] = probes::NameOf(r.outcome);
      row[9] = Int(r.states);
      row[19] = r.reason;
      row[21] = Int(r.states);
      row[22] = Int(r.corrupt);
      row[23] = Int(r.lost_states);
      row[24] = Int(r.lost_max);
      row[30] = r.device;
      row[31] = Int(r.distinct);
      row[32] = !r.agrees_with_crashsim ? "" : *r.agrees_with_crashsim ? "true" : "false";
      rows.push_back(std::move(row));
    }
    // faults: one row per experiment and per SQLite commit, the filesystem in primitive's place
    // (as crashtest) and the fault in pattern's.
    for (const probes::FsyncErrorsResult& r : t.fsync_errors) {
      for (const probes::FsyncErrorOutcome& o : r.outcomes) {
        std::vector<std::string> row(FlatColumns().size());
        row[0] = t.path;
        row[1] = "fsync_error";
        row[2] = r.fs;
        row[3] = probes::NameOf(o.fault);
        row[8] = probes::NameOf(o.status);
        row[19] = o.reason;
        row[33] = r.fs_options;
        row[34] = o.sync;
        if (o.status == probes::Outcome::kOk) {
          row[35] = o.write;
          row[36] = o.first_sync;
          row[37] = o.second_sync;
          row[38] = o.other_sync;
          row[39] = probes::NameOf(o.reporting);
          row[40] = probes::NameOf(o.cached);
          row[41] = probes::NameOf(o.evicted);
          row[42] = probes::NameOf(o.remounted);
          row[43] = Int(o.size);
          row[44] = Int(o.size_after_remount);
          row[45] = probes::NameOf(o.state);
          row[46] = o.remount_ok ? "true" : "false";
          row[47] = o.retry;
        }
        rows.push_back(std::move(row));
      }
      for (const probes::SqliteSyncFailure& f : r.sqlite) {
        std::vector<std::string> row(FlatColumns().size());
        row[0] = t.path;
        row[1] = "sqlite_sync_failure";
        row[2] = r.fs;
        row[5] = f.journal_mode;
        row[6] = "FULL";
        row[8] = probes::NameOf(f.status);
        row[19] = f.reason;
        row[33] = r.fs_options;
        if (f.status == probes::Outcome::kOk) {
          row[48] = f.commit;
          row[49] = f.reopened;
          row[50] = Int(f.rows_reopened);
          row[51] = f.remounted;
          row[52] = Int(f.rows_remounted);
        }
        rows.push_back(std::move(row));
      }
    }
  }
  return rows;
}

}  // namespace durprobe::render
