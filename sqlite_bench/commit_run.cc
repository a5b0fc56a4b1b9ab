#include "sqlite_bench/commit_run.h"

#include <fmt/format.h>

#include <algorithm>

#include "platform/interrupt.h"
#include "probes/histogram.h"
#include "sqlite_bench/build_info.h"
#include "sqlite_bench/commit_bench.h"
#include "sqlite_bench/kv_table.h"
#include "sqlite_bench/past_deadline.h"
#include "sqlite_bench/rows.h"
#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {
// The run's parts, in a named namespace: CommitRun::State holds them (an anonymous namespace
// would give its fields internal linkage).
namespace commit_run_parts {

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
class CommitWorkload {
 public:
  CommitWorkload(Db& db, const CommitConfig& config) : db_(db), config_(config) {}

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

}  // namespace commit_run_parts

namespace {
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

}  // namespace

using commit_run_parts::CommitWorkload;
using commit_run_parts::HookState;
using commit_run_parts::WalHook;

struct CommitRun::State {
  State(platform::Platform& p, CountingVfs& v, std::string db_path, const CommitOptions& o)
      : platform(p), vfs(v), path(std::move(db_path)), options(o) {}
  std::unique_ptr<CountingVfs> owned_vfs;  // first, so it outlives the connection
  platform::Platform& platform;
  CountingVfs& vfs;
  std::string path;
  CommitOptions options;
  CommitResult r;
  Status status;
  std::unique_ptr<Db> db;
  HookState hook;
  std::unique_ptr<CommitWorkload> work;
  std::uint64_t rep_budget_ns = 0;
  probes::Histogram latency;
  probes::Histogram repeat_latency;  // since the last TakeRepeatLatency

  Status Open();
  Status OneRepetition(std::uint64_t cap_ns);
  Status ReadBackAndClose();
};

Status CommitRun::State::Open() {
  const CommitConfig& config = r.config;
  const CommitOptions& o = options;
  std::uint64_t start = platform.NowNanos();
  vfs.set_phase(Phase::kSetup);
  Result<std::unique_ptr<Db>> opened = Db::Open(path, vfs.name());
  if (!opened.ok()) return opened.status();
  db = std::move(*opened);
  if (Status s = ApplySettings(*db, config, &r); !s.ok()) return s;
  hook = HookState{&vfs, 0, 0, &r.checkpoints};
  if (config.journal == JournalMode::kWal) {
    Result<std::string> threshold = db->QueryText("PRAGMA wal_autocheckpoint");
    if (!threshold.ok()) return threshold.status();
    hook.threshold = std::stoi(*threshold);
    sqlite3_wal_hook(db->get(), WalHook, &hook);
  }
  work = std::make_unique<CommitWorkload>(*db, r.config);
  if (Status s = work->Prepare(); !s.ok()) return s;

  vfs.set_phase(Phase::kWarmup);
  std::uint64_t warm_deadline = platform.NowNanos() + o.budget_ns / 10;
  std::uint64_t warm_limit =
      o.fixed_commits ? std::min(o.warmup_commits, o.fixed_commits) : o.warmup_commits;
  if (o.deadline_ns != 0 && !o.fixed_commits)
    warm_deadline = std::min(warm_deadline, o.deadline_ns);
  while (r.warmup_commits < warm_limit &&
         (o.fixed_commits || platform.NowNanos() < warm_deadline)) {
    if (Status s = Interrupted(); !s.ok()) return s;
    if (Status s = work->Commit(); !s.ok()) return s;
    ++r.warmup_commits;
  }
  std::uint64_t used = platform.NowNanos() - start;
  std::uint64_t left = o.budget_ns > used ? o.budget_ns - used : 0;
  // The rest of the budget is for read-back and close.
  rep_budget_ns = left * 8 / 10 / o.TimedRepetitions();
  return Status::Ok();
}

Status CommitRun::State::OneRepetition(std::uint64_t cap_ns) {
  const CommitOptions& o = options;
  const std::uint64_t budget_ns = std::min(rep_budget_ns, cap_ns);
  const std::uint64_t rows_per_commit = r.config.rows_per_commit;
  vfs.set_phase(Phase::kCommit);
  std::uint64_t rep_commits = 0, rep_ns = 0;
  const VfsCounts before = vfs.counts(Phase::kCommit);
  probes::FlushCounter flushes(platform, o.flush_counting);
  const std::uint64_t rep_start = platform.NowNanos();
  Status stop;
  for (;;) {
    if (o.fixed_commits) {
      if (rep_commits >= o.fixed_commits) break;
    } else if (rep_commits >= o.min_commits &&
               (platform.NowNanos() - rep_start >= budget_ns ||
                (r.commits + rep_commits + 1) * rows_per_commit > o.max_rows)) {
      break;
    } else if (rep_commits >= 1 && PastDeadline(platform, o.deadline_ns)) {
      break;  // the run's budget is spent: one commit is what this repetition can report
    }
    if (stop = Interrupted(); !stop.ok()) break;
    hook.ns_in_commit = 0;
    std::uint64_t t0 = platform.NowNanos();
    Status s = work->Commit();
    std::uint64_t t1 = platform.NowNanos();
    if (!s.ok()) return s;
    std::uint64_t ns = t1 - t0 - std::min(hook.ns_in_commit, t1 - t0);
    latency.Record(ns);
    repeat_latency.Record(ns);
    rep_ns += ns;
    ++rep_commits;
  }
  if (rep_commits > 0) {
    const std::uint64_t rep_wall = platform.NowNanos() - rep_start;
    flushes.EndTimed(rep_commits, rep_wall);
    flushes.Idle(rep_wall / probes::kControlShare);
    probes::Merge(r.device_flushes, flushes.tally());
    const VfsCounts after = vfs.counts(Phase::kCommit);
    r.repetition_windows.push_back({.start_ns = rep_start,
                                    .end_ns = platform.NowNanos(),
                                    .commits = rep_commits,
                                    .commit_ns = rep_ns,
                                    .sync_calls = after.sync_calls() - before.sync_calls(),
                                    .sync_ns = after.sync_ns() - before.sync_ns()});
    r.repetition_commits_per_sec.push_back(rep_ns ? double(rep_commits) * 1e9 / double(rep_ns)
                                                  : 0.0);
    r.commits += rep_commits;
    r.timed_ns += rep_ns;
    ++r.repetitions;
  }
  return stop;
}

Status CommitRun::State::ReadBackAndClose() {
  vfs.set_phase(Phase::kVerify);
  if (Status s = VerifyTable(db->get(), work->checksum()); !s.ok()) return s;
  r.verified_rows = work->checksum().rows();
  r.checksum = work->checksum().value();
  work->Finish();
  return db->Close();
}

CommitRun::CommitRun(platform::Platform& platform, CountingVfs& vfs, const std::string& scratch_dir,
                     const std::string& db_name, const CommitConfig& config,
                     const CommitOptions& options)
    : s_(std::make_unique<State>(platform, vfs, scratch_dir + "/" + db_name, options)) {
  s_->r.config = config;
  s_->r.sync_primitive = SqliteSyncPrimitive(platform, config.fullfsync.value_or(false));
  s_->r.dir_syncs_inferred = vfs.infers_dir_syncs();
  RemoveDatabaseFiles(platform, s_->path);
  vfs.Reset();
  s_->status = s_->Open();
}

CommitRun::CommitRun(std::unique_ptr<CountingVfs> vfs, platform::Platform& platform,
                     const std::string& scratch_dir, const std::string& db_name,
                     const CommitConfig& config, const CommitOptions& options)
    : CommitRun(platform, *vfs, scratch_dir, db_name, config, options) {
  s_->owned_vfs = std::move(vfs);
}

CommitRun::~CommitRun() = default;

std::uint32_t CommitRun::repetitions_done() const { return s_->r.repetitions; }

std::uint64_t CommitRun::last_repetition_ns() const {
  const std::vector<sqlite_bench::Repetition>& w = s_->r.repetition_windows;
  return w.empty() ? 0 : w.back().end_ns - w.back().start_ns;
}

Status CommitRun::Repetition(std::uint64_t cap_ns) {
  if (!s_->status.ok()) return s_->status;
  Status s = s_->OneRepetition(cap_ns);
  // An interrupted repetition keeps its commits and leaves the run consistent; a failure ends it.
  if (!s.ok() && s.kind() != Status::Kind::kInterrupted) s_->status = s;
  return s;
}

probes::LatencySummary CommitRun::TakeRepeatLatency() {
  probes::LatencySummary summary = probes::Summarize(s_->repeat_latency);
  s_->repeat_latency.Clear();
  return summary;
}

CommitResult CommitRun::Finish() {
  State& st = *s_;
  CommitResult& r = st.r;
  r.rows = r.commits * r.config.rows_per_commit;
  r.commits_per_sec = probes::Median(r.repetition_commits_per_sec);
  r.rows_per_sec = r.commits_per_sec * double(r.config.rows_per_commit);
  r.latency = probes::Summarize(st.latency);
  if (st.status.ok()) st.status = st.ReadBackAndClose();
  st.work.reset();
  st.db.reset();
  CountingVfs& vfs = st.vfs;
  r.setup_counts = vfs.counts(Phase::kSetup);
  r.setup_counts += vfs.counts(Phase::kWarmup);
  r.commit_counts = vfs.counts(Phase::kCommit);
  r.checkpoints.counts = vfs.counts(Phase::kCheckpoint);
  r.verify_counts = vfs.counts(Phase::kVerify);
  if (!st.status.ok()) {
    r.outcome = probes::OutcomeOf(st.status);
    r.reason = st.status.message();
  }
  RemoveDatabaseFiles(st.platform, st.path);
  return std::move(r);
}

}  // namespace durprobe::sqlite_bench
