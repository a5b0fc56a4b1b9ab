#include "sqlite_bench/concurrency_worker.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <type_traits>

#include "platform/interrupt.h"
#include "sqlite_bench/kv_table.h"

namespace durprobe::sqlite_bench {
namespace {

static_assert(std::is_trivially_copyable_v<WorkerCounts>);

// Steps a prepared statement to its end; the SQLite result code.
int StepToEnd(sqlite3_stmt* stmt) {
  int rc;
  while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
  }
  sqlite3_reset(stmt);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

class Worker {
 public:
  Worker(platform::Platform& platform, const WorkerConfig& config, WorkerStats* stats)
      : platform_(platform), c_(config), st_(stats) {}

  Status Open() {
    Result<std::unique_ptr<Db>> db = Db::Open(c_.path, nullptr);
    if (!db.ok()) return db.status();
    db_ = std::move(*db);
    // busy_timeout first, so everything after it (schema reads included) waits as configured.
    if (Status s = db_->Exec(fmt::format("PRAGMA busy_timeout={}", c_.busy_timeout_ms)); !s.ok())
      return s;
    if (Status s = db_->Exec("PRAGMA synchronous=" + c_.synchronous); !s.ok()) return s;
    const std::pair<const char*, Statement*> statements[] = {
        {"BEGIN IMMEDIATE", &begin_},
        {"COMMIT", &commit_},
        {"ROLLBACK", &rollback_},
        {"SELECT COUNT(*) FROM metrics", &count_},
        {"INSERT INTO metrics (val) VALUES (?1)", &insert_}};
    for (auto [sql, into] : statements) {
      Result<Statement> stmt = db_->Prepare(sql);
      if (!stmt.ok()) return stmt.status();
      *into = std::move(*stmt);
    }
    return Status::Ok();
  }

  Status Run() {
    for (std::uint64_t i = 0; i < c_.ops; ++i) {
      if (int sig = platform::InterruptSignal(); sig != 0) return Status::Interrupted(sig);
      if (platform_.NowNanos() >= c_.deadline_ns) {
        st_->counts.deadline_hit = true;
        break;
      }
      ++st_->counts.ops;
      Status s = IsWriteOp(i, c_.write_share) ? Write(i) : Read();
      if (!s.ok()) return s;
    }
    for (Statement* stmt : {&begin_, &commit_, &rollback_, &count_, &insert_}) *stmt = Statement();
    return db_->Close();
  }

 private:
  Status Write(std::uint64_t i) {
    std::string val = MetricValue(c_.worker, i);
    std::uint64_t t0 = platform_.NowNanos();
    int rc = StepToEnd(begin_.get());
    if (rc == SQLITE_OK) {
      sqlite3_bind_text(insert_.get(), 1, val.data(), static_cast<int>(val.size()), SQLITE_STATIC);
      rc = StepToEnd(insert_.get());
      if (rc == SQLITE_OK) rc = StepToEnd(commit_.get());
      // A failed INSERT or COMMIT leaves the transaction open: end it.
      if (rc != SQLITE_OK && !sqlite3_get_autocommit(db_->get())) StepToEnd(rollback_.get());
    }
    std::uint64_t t1 = platform_.NowNanos();
    if (IsBusy(rc)) {
      ++st_->counts.busy_writes;
      return Status::Ok();
    }
    if (rc != SQLITE_OK) return SqliteError(db_->get(), rc, "write " + val);
    st_->write_latency.Record(t1 - t0);
    ++st_->counts.writes;
    st_->counts.checksum += Fnv1a(val);
    return Status::Ok();
  }

  Status Read() {
    std::uint64_t t0 = platform_.NowNanos();
    int rc = StepToEnd(count_.get());
    std::uint64_t t1 = platform_.NowNanos();
    if (IsBusy(rc)) {
      ++st_->counts.busy_reads;
      return Status::Ok();
    }
    if (rc != SQLITE_OK) return SqliteError(db_->get(), rc, "SELECT COUNT(*)");
    st_->read_latency.Record(t1 - t0);
    ++st_->counts.reads;
    return Status::Ok();
  }

  platform::Platform& platform_;
  const WorkerConfig& c_;
  WorkerStats* st_;
  std::unique_ptr<Db> db_;
  Statement begin_, commit_, rollback_, count_, insert_;
};

}  // namespace

bool IsWriteOp(std::uint64_t i, double share) {
  return std::floor(double(i + 1) * share + 1e-9) > std::floor(double(i) * share + 1e-9);
}

std::string MetricValue(std::uint32_t worker, std::uint64_t i) {
  return fmt::format("w{}-{}", worker, i);
}

std::uint64_t Fnv1a(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

void RunWorker(platform::Platform& platform, const WorkerConfig& config,
               const std::function<bool()>& wait_start, WorkerStats* stats) {
  Worker w(platform, config, stats);
  Status opened = w.Open();
  bool go = wait_start();  // called even after a failure, so the others are not held up
  if (!opened.ok()) {
    stats->error = opened.message();
    return;
  }
  if (!go) {
    stats->error = "no start signal";
    return;
  }
  if (Status s = w.Run(); !s.ok()) stats->error = s.message();
}

std::string EncodeStats(const WorkerStats& s) {
  std::string out(sizeof s.counts, '\0');
  std::memcpy(out.data(), &s.counts, sizeof s.counts);
  return out + s.write_latency.ToBytes() + s.read_latency.ToBytes() + s.error;
}

Result<WorkerStats> DecodeStats(const std::string& bytes) {
  constexpr std::size_t kHist = probes::Histogram::kBytes;
  std::size_t fixed = sizeof(WorkerCounts) + 2 * kHist;
  if (bytes.size() < fixed) return Status::Error("worker stats frame too short");
  WorkerStats s;
  std::memcpy(&s.counts, bytes.data(), sizeof s.counts);
  std::string_view view(bytes);
  (void)probes::Histogram::FromBytes(view.substr(sizeof s.counts, kHist), &s.write_latency);
  (void)probes::Histogram::FromBytes(view.substr(sizeof s.counts + kHist, kHist), &s.read_latency);
  s.error = bytes.substr(fixed);
  return s;
}

}  // namespace durprobe::sqlite_bench
