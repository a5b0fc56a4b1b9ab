#include "sqlite_bench/commit_bench.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "platform/interrupt.h"
#include "probes/histogram.h"
#include "sqlite_bench/build_info.h"
#include "sqlite_bench/device_warmup.h"
#include "sqlite_bench/rows.h"
#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {
namespace {

// Replaces SQLite's default autocheckpoint hook with the same rule (a PASSIVE checkpoint once
// the WAL holds `threshold` frames after a commit), so the checkpoint can be timed and counted
// apart from the commit that triggered it.
struct HookState {
  CountingVfs* vfs = nullptr;
  int threshold = 0;
  std::uint64_t ns_in_commit = 0;
  CheckpointStats* stats = nullptr;
};

int WalHook(void* arg, sqlite3* db, const char* schema, int frames) {
  auto* st = static_cast<HookState*>(arg);
  if (st->threshold <= 0 || frames < st->threshold) return SQLITE_OK;
  bool timed = st->vfs->phase() == Phase::kCommit;
  if (timed) st->vfs->set_phase(Phase::kCheckpoint);
  std::uint64_t start = st->vfs->Now();
  // As with SQLite's own hook, a checkpoint that cannot finish is not the commit's failure.
  sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
  std::uint64_t elapsed = st->vfs->Now() - start;
  if (timed) {
    st->vfs->set_phase(Phase::kCommit);
    st->ns_in_commit += elapsed;
    ++st->stats->count;
    st->stats->ns += elapsed;
  }
  return SQLITE_OK;
}

// One transaction at a time of the configured shape, feeding the expected checksum.
class Workload {
 public:
  Workload(Db& db, const CommitConfig& config) : db_(db), config_(config) {}

  Status Prepare() {
    Result<Statement> begin = db_.Prepare("BEGIN");
    Result<Statement> commit = db_.Prepare("COMMIT");
    if (!begin.ok()) return begin.status();
    if (!commit.ok()) return commit.status();
    begin_ = std::move(*begin);
    commit_ = std::move(*commit);
    if (config_.statement == StatementMode::kReused) {
      Result<Statement> insert = db_.Prepare(kInsertSql);
      if (!insert.ok()) return insert.status();
      insert_ = std::move(*insert);
    }
    return Status::Ok();
  }

  Status Commit() {
    bool explicit_txn = config_.rows_per_commit > 1;
    if (explicit_txn) {
      if (Status s = Step(begin_.get(), "BEGIN"); !s.ok()) return s;
    }
    for (std::uint32_t i = 0; i < config_.rows_per_commit; ++i) {
      if (Status s = InsertRow(); !s.ok()) {
        if (explicit_txn) sqlite3_exec(db_.get(), "ROLLBACK", nullptr, nullptr, nullptr);
        return s;
      }
    }
    if (explicit_txn) return Step(commit_.get(), "COMMIT");
    return Status::Ok();
  }

  const RowChecksum& checksum() const { return checksum_; }
  // Finalizes the statements, which the connection's close requires.
  void Finish() { begin_ = Statement(), commit_ = Statement(), insert_ = Statement(); }

 private:
  Status Step(sqlite3_stmt* stmt, const char* what) {
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE ? Status::Ok() : SqliteError(db_.get(), rc, what);
  }

  Status InsertRow() {
    std::uint64_t id = next_id_++;
    FillPayload(id, &payload_, config_.payload_bytes);
    Statement per_row;
    sqlite3_stmt* stmt = insert_.get();
    if (config_.statement == StatementMode::kPerRow) {
      Result<Statement> fresh = db_.Prepare(kInsertSql);
      if (!fresh.ok()) return fresh.status();
      per_row = std::move(*fresh);
      stmt = per_row.get();
    }
    sqlite3_bind_int64(stmt, 1, static_cast<sqlite3_int64>(id));
    sqlite3_bind_blob(stmt, 2, payload_.data(), static_cast<int>(payload_.size()), SQLITE_STATIC);
    Status s = Step(stmt, "INSERT");
    sqlite3_clear_bindings(stmt);
    if (s.ok()) checksum_.Add(id, payload_.data(), payload_.size());
    return s;
  }

  Db& db_;
  const CommitConfig& config_;
  Statement begin_, commit_, insert_;
  std::uint64_t next_id_ = 1;
  std::string payload_;
  RowChecksum checksum_;
};

double Median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

Status Interrupted() {
  int sig = platform::InterruptSignal();
  return sig ? Status::Interrupted(sig) : Status::Ok();
}

Status ApplySettings(Db& db, const CommitConfig& config, CommitResult* r) {
  std::string want(NameOf(config.journal));
  Result<std::string> mode = db.QueryText("PRAGMA journal_mode=" + want);
  if (!mode.ok()) return mode.status();
  r->journal_mode_actual = *mode;
  std::transform(r->journal_mode_actual.begin(), r->journal_mode_actual.end(),
                 r->journal_mode_actual.begin(), ::toupper);
  if (r->journal_mode_actual != want) {
    return Status::Unsupported(
        fmt::format("SQLite kept journal_mode={} when asked for {}", r->journal_mode_actual, want));
  }
  if (Status s = db.Exec(fmt::format("PRAGMA synchronous={}", NameOf(config.sync))); !s.ok())
    return s;
  if (config.fullfsync) {
    int on = *config.fullfsync ? 1 : 0;
    if (Status s =
            db.Exec(fmt::format("PRAGMA fullfsync={0}; PRAGMA checkpoint_fullfsync={0}", on));
        !s.ok()) {
      return s;
    }
  }
  return db.Exec(kCreateTableSql);
}

Status RunBody(platform::Platform& platform, CountingVfs& vfs, const std::string& path,
               const CommitConfig& config, const CommitOptions& o, CommitResult* r) {
  std::uint64_t start = platform.NowNanos();
  vfs.set_phase(Phase::kSetup);
  Result<std::unique_ptr<Db>> opened = Db::Open(path, vfs.name());
  if (!opened.ok()) return opened.status();
  Db& db = **opened;
  if (Status s = ApplySettings(db, config, r); !s.ok()) return s;
  HookState hook{&vfs, 0, 0, &r->checkpoints};
  if (config.journal == JournalMode::kWal) {
    Result<std::string> threshold = db.QueryText("PRAGMA wal_autocheckpoint");
    if (!threshold.ok()) return threshold.status();
    hook.threshold = std::stoi(*threshold);
    sqlite3_wal_hook(db.get(), WalHook, &hook);
  }
  Workload work(db, config);
  if (Status s = work.Prepare(); !s.ok()) return s;

  vfs.set_phase(Phase::kWarmup);
  std::uint64_t warm_deadline = platform.NowNanos() + o.budget_ns / 10;
  std::uint64_t warm_limit =
      o.fixed_commits ? std::min(o.warmup_commits, o.fixed_commits) : o.warmup_commits;
  while (r->warmup_commits < warm_limit &&
         (o.fixed_commits || platform.NowNanos() < warm_deadline)) {
    if (Status s = Interrupted(); !s.ok()) return s;
    if (Status s = work.Commit(); !s.ok()) return s;
    ++r->warmup_commits;
  }

  std::uint64_t used = platform.NowNanos() - start;
  std::uint64_t left = o.budget_ns > used ? o.budget_ns - used : 0;
  std::uint32_t reps = std::max<std::uint32_t>(o.repetitions, 1);
  std::uint64_t rep_budget = left * 8 / 10 / reps;  // the rest for read-back and close
  std::uint64_t rows_per_commit = config.rows_per_commit;
  probes::Histogram latency;
  vfs.set_phase(Phase::kCommit);
  for (std::uint32_t rep = 0; rep < reps; ++rep) {
    std::uint64_t rep_commits = 0, rep_ns = 0;
    const VfsCounts before = vfs.counts(Phase::kCommit);
    std::uint64_t rep_start = platform.NowNanos();
    for (;;) {
      if (o.fixed_commits) {
        if (rep_commits >= o.fixed_commits) break;
      } else if (rep_commits >= o.min_commits &&
                 (platform.NowNanos() - rep_start >= rep_budget ||
                  (r->commits + rep_commits + 1) * rows_per_commit > o.max_rows)) {
        break;
      }
      if (Status s = Interrupted(); !s.ok()) return s;
      hook.ns_in_commit = 0;
      std::uint64_t t0 = platform.NowNanos();
      Status s = work.Commit();
      std::uint64_t t1 = platform.NowNanos();
      if (!s.ok()) return s;
      std::uint64_t ns = t1 - t0 - std::min(hook.ns_in_commit, t1 - t0);
      latency.Record(ns);
      rep_ns += ns;
      ++rep_commits;
    }
    const VfsCounts after = vfs.counts(Phase::kCommit);
    r->repetition_windows.push_back({.start_ns = rep_start,
                                     .end_ns = platform.NowNanos(),
                                     .commits = rep_commits,
                                     .commit_ns = rep_ns,
                                     .sync_calls = after.sync_calls() - before.sync_calls(),
                                     .sync_ns = after.sync_ns() - before.sync_ns()});
    r->repetition_commits_per_sec.push_back(rep_ns ? double(rep_commits) * 1e9 / double(rep_ns)
                                                   : 0.0);
    r->commits += rep_commits;
    r->timed_ns += rep_ns;
    ++r->repetitions;
  }
  r->rows = r->commits * rows_per_commit;
  r->commits_per_sec = Median(r->repetition_commits_per_sec);
  r->rows_per_sec = r->commits_per_sec * double(rows_per_commit);
  r->latency = probes::Summarize(latency);

  vfs.set_phase(Phase::kVerify);
  if (Status s = VerifyTable(db.get(), work.checksum()); !s.ok()) return s;
  r->verified_rows = work.checksum().rows();
  r->checksum = work.checksum().value();
  work.Finish();
  return db.Close();
}

probes::Outcome OutcomeOf(const Status& s) {
  return s.unsupported()                          ? probes::Outcome::kUnsupported
         : s.kind() == Status::Kind::kInterrupted ? probes::Outcome::kInterrupted
                                                  : probes::Outcome::kError;
}

void RemoveDatabaseFiles(platform::Platform& platform, const std::string& path) {
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
    std::string file = path + suffix;
    if (platform.KindOf(file) != platform::PathKind::kMissing) platform.Unlink(file);
  }
}

}  // namespace

VfsCounts CommitResult::AllCounts() const {
  VfsCounts all = setup_counts;
  all += commit_counts;
  all += checkpoints.counts;
  all += verify_counts;
  return all;
}

CommitResult RunCommitConfig(platform::Platform& platform, CountingVfs& vfs,
                             const std::string& scratch_dir, const std::string& db_name,
                             const CommitConfig& config, const CommitOptions& options) {
  CommitResult r;
  r.config = config;
  r.sync_primitive = SqliteSyncPrimitive(platform, config.fullfsync.value_or(false));
  r.dir_syncs_inferred = vfs.infers_dir_syncs();
  std::string path = scratch_dir + "/" + db_name;
  RemoveDatabaseFiles(platform, path);
  vfs.Reset();
  Status s = RunBody(platform, vfs, path, config, options, &r);
  r.setup_counts = vfs.counts(Phase::kSetup);
  r.setup_counts += vfs.counts(Phase::kWarmup);
  r.commit_counts = vfs.counts(Phase::kCommit);
  r.checkpoints.counts = vfs.counts(Phase::kCheckpoint);
  r.verify_counts = vfs.counts(Phase::kVerify);
  if (!s.ok()) {
    r.outcome = OutcomeOf(s);
    r.reason = s.message();
  }
  RemoveDatabaseFiles(platform, path);
  return r;
}

CommitSession::CommitSession(platform::Platform& platform, std::string dir,
                             std::unique_ptr<CountingVfs> vfs)
    : platform_(platform), dir_(std::move(dir)), vfs_(std::move(vfs)) {}

CommitSession::~CommitSession() = default;

Result<std::unique_ptr<CommitSession>> CommitSession::Open(platform::Platform& platform,
                                                           const std::string& scratch_dir) {
  static std::atomic<int> serial{0};
  std::string name = fmt::format("durprobe-counting-{}-{}", platform.ProcessId(), serial++);
  Result<std::unique_ptr<CountingVfs>> vfs = CountingVfs::Register(platform, name);
  if (!vfs.ok()) return vfs.status();
  return std::unique_ptr<CommitSession>(new CommitSession(platform, scratch_dir, std::move(*vfs)));
}

CommitResult CommitSession::Run(const CommitConfig& config, const CommitOptions& options) {
  if (!warmed_up_ && options.device_warmup_ns > 0) {
    warmed_up_ = true;
    Result<DeviceWarmup> warm =
        WarmUpDevice(platform_, dir_, std::min(options.device_warmup_ns, options.budget_ns / 10));
    if (!warm.ok()) {
      return NotRun(config, OutcomeOf(warm.status()), "device warm-up: " + warm.status().message());
    }
  }
  return RunCommitConfig(platform_, *vfs_, dir_, fmt::format("commit-{}.db", next_++), config,
                         options);
}

void CommitSession::WarmUp(const CommitConfig& config) {
  CommitOptions untimed{.repetitions = 1, .warmup_commits = 0, .fixed_commits = kWarmUpCommits};
  RunCommitConfig(platform_, *vfs_, dir_, "warm-up.db", config, untimed);
}

CommitResult NotRun(const CommitConfig& config, probes::Outcome outcome, std::string reason) {
  CommitResult r;
  r.config = config;
  r.outcome = outcome;
  r.reason = std::move(reason);
  return r;
}

std::vector<CommitResult> RunCommitMatrix(platform::Platform& platform,
                                          const std::string& scratch_dir, const MatrixPlan& plan) {
  std::vector<CommitResult> results;
  Result<std::unique_ptr<CommitSession>> session = CommitSession::Open(platform, scratch_dir);
  if (!session.ok()) {
    for (const CommitConfig& c : plan.configs) {
      results.push_back(NotRun(c, probes::Outcome::kError, session.status().message()));
    }
    return results;
  }
  for (const CommitConfig& config : plan.configs) {
    results.push_back((*session)->Run(config, plan.options));
    if (results.back().outcome == probes::Outcome::kInterrupted) break;
  }
  return results;
}

std::uint64_t PerConfigBudget(std::uint64_t budget_ns, std::size_t n) {
  return n == 0 ? budget_ns : budget_ns / n;
}

}  // namespace durprobe::sqlite_bench
