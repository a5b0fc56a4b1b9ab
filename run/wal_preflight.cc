#include "run/wal_preflight.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/finding_codes.h"

namespace durprobe::run {

bool UsesWal(const sqlite_bench::CommitConfig& config) {
  return config.journal == sqlite_bench::JournalMode::kWal;
}

bool NeedsWal(const Plan& plan) {
  bool configs = plan.run_sqlite &&
                 std::any_of(plan.sqlite.configs.begin(), plan.sqlite.configs.end(), UsesWal);
  return configs ||
         (plan.run_workloads && !sqlite_bench::SelectedWorkloads(plan.workloads).empty());
}

WalGate::WalGate(platform::Platform& platform, const std::string& dir, bool needed) {
  if (!needed) return;
  why_ = platform.CheckSharedMapping(dir, platform::SharedMapping{});
  // Interrupted: nothing more starts on the path anyway (the schedules look at the signal).
  usable_ = why_.ok() || why_.kind() == Status::Kind::kInterrupted;
}

sqlite_bench::CommitResult WalGate::Refuse(const sqlite_bench::CommitConfig& config) {
  if (failed_.empty()) {
    failed_ = sqlite_bench::Label(config);
    return sqlite_bench::NotRun(
        config, probes::Outcome::kError,
        "WAL's shared-memory index cannot be mapped on this path (durprobe's pre-flight, "
        "docs/sqlite.md): " +
            why_.message());
  }
  skipped_.push_back(sqlite_bench::Label(config));
  return sqlite_bench::NotRun(
      config, probes::Outcome::kUnsupported,
      fmt::format("skipped: {} showed that WAL's shared-memory index cannot be mapped here "
                  "(sqlite_wal_shm_unusable)",
                  failed_));
}

void WalGate::AddFinding(model::Target& target) const {
  if (usable_ || (failed_.empty() && skipped_.empty())) return;
  std::string what = failed_.empty() ? "" : "reported failed: " + failed_;
  for (std::size_t i = 0; i < skipped_.size(); ++i) {
    what += (i > 0 ? ", " : what.empty() ? "skipped: " : "; skipped: ") + skipped_[i];
  }
  bool killed = why_.kind() == Status::Kind::kError;
  target.findings.push_back(
      {model::Severity::kWarn, model::codes::kSqliteWalShmUnusable,
       fmt::format("WAL cannot run on this path: SQLite maps the WAL's shared-memory index (the "
                   "-shm file) with mmap(MAP_SHARED), and here {} ({}); {}. Use a rollback "
                   "journal (DELETE) here, or WAL with PRAGMA locking_mode=EXCLUSIVE, which "
                   "keeps the index in heap memory (https://www.sqlite.org/wal.html#noshm)",
                   killed ? "touching that mapping kills the process" : "that mapping fails",
                   why_.message(), what)});
}

}  // namespace durprobe::run
