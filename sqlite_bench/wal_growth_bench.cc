// WAL growth: a reader keeps a read transaction (a snapshot) open while a writer
// commits. Checkpoints can copy frames into the database only up to the reader's snapshot, and
// the WAL cannot restart from its beginning while the reader uses it, so the file grows past the
// autocheckpoint threshold. Once the reader ends, PASSIVE copies everything but leaves the file
// at its size; TRUNCATE empties it.
#include "sqlite_bench/wal_growth_bench.h"

#include <fmt/format.h>

#include "platform/interrupt.h"
#include "sqlite_bench/kv_table.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::sqlite_bench {
namespace {

constexpr std::size_t kPayloadBytes = 100;

class Writer {
 public:
  explicit Writer(Db& db) : db_(db) {}

  Status Prepare() {
    Result<Statement> insert = db_.Prepare(kInsertSql);
    if (!insert.ok()) return insert.status();
    insert_ = std::move(*insert);
    return Status::Ok();
  }

  Status Commit(std::uint64_t rows) {
    if (Status s = db_.Exec("BEGIN"); !s.ok()) return s;
    for (std::uint64_t i = 0; i < rows; ++i) {
      std::uint64_t id = next_id_++;
      FillPayload(id, &payload_, kPayloadBytes);
      sqlite3_bind_int64(insert_.get(), 1, static_cast<sqlite3_int64>(id));
      sqlite3_bind_blob(insert_.get(), 2, payload_.data(), static_cast<int>(payload_.size()),
                        SQLITE_STATIC);
      int rc = sqlite3_step(insert_.get());
      sqlite3_reset(insert_.get());
      if (rc != SQLITE_DONE) {
        Status s = SqliteError(db_.get(), rc, "insert");
        (void)db_.Exec("ROLLBACK");  // the insert's failure is the one to report
        return s;
      }
      pending_.Add(id, payload_.data(), payload_.size());
    }
    if (Status s = db_.Exec("COMMIT"); !s.ok()) return s;
    committed_ = pending_;
    return Status::Ok();
  }

  const RowChecksum& committed() const { return committed_; }
  void Finish() { insert_ = Statement(); }

 private:
  Db& db_;
  Statement insert_;
  std::uint64_t next_id_ = 1;
  std::string payload_;
  RowChecksum pending_, committed_;
};

Result<CheckpointAnswer> Checkpoint(Db& db, const char* mode) {
  Result<Statement> stmt = db.Prepare(fmt::format("PRAGMA wal_checkpoint({})", mode));
  if (!stmt.ok()) return stmt.status();
  int rc = sqlite3_step(stmt->get());
  if (rc != SQLITE_ROW) return SqliteError(db.get(), rc, fmt::format("wal_checkpoint({})", mode));
  return CheckpointAnswer{sqlite3_column_int(stmt->get(), 0), sqlite3_column_int(stmt->get(), 1),
                          sqlite3_column_int(stmt->get(), 2)};
}

Result<std::uint64_t> CountRows(Db& db) {
  Result<std::int64_t> n = PragmaInt(db, "SELECT count(*) FROM events");
  if (!n.ok()) return n.status();
  return static_cast<std::uint64_t>(*n);
}

Status Run(platform::Platform& platform, const std::string& path, const WorkloadOptions& o,
           WalGrowthResult* r) {
  std::uint64_t start = platform.NowNanos();
  Result<std::unique_ptr<Db>> wdb = Db::Open(path, nullptr);
  if (!wdb.ok()) return wdb.status();
  Db& db = **wdb;
  r->synchronous = "NORMAL";  // commits need no sync; growth does not depend on it
  if (Status s = db.Exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL"); !s.ok()) return s;
  if (Status s = db.Exec(kCreateTableSql); !s.ok()) return s;
  Result<std::int64_t> autocheckpoint = PragmaInt(db, "PRAGMA wal_autocheckpoint");
  if (!autocheckpoint.ok()) return autocheckpoint.status();
  r->wal_autocheckpoint = static_cast<int>(*autocheckpoint);
  r->rows_per_commit = o.wal_rows_per_commit;
  Writer writer(db);
  if (Status s = writer.Prepare(); !s.ok()) return s;
  // Some frames before the reader arrives, so its snapshot is in the middle of the WAL.
  for (std::uint32_t i = 0; i < o.wal_commits_per_round; ++i) {
    if (Status s = writer.Commit(o.wal_rows_per_commit); !s.ok()) return s;
  }

  Result<std::unique_ptr<Db>> rdb = Db::Open(path, nullptr);
  if (!rdb.ok()) return rdb.status();
  Db& reader = **rdb;
  if (Status s = reader.Exec("BEGIN"); !s.ok()) return s;
  Result<std::uint64_t> seen = CountRows(reader);
  if (!seen.ok()) return seen.status();
  r->reader_rows = *seen;

  std::uint64_t t0 = platform.NowNanos();
  std::uint64_t deadline = start + o.budget_ns;
  for (std::uint32_t round = 0; round < o.wal_rounds; ++round) {
    if (int sig = platform::InterruptSignal(); sig != 0) return Status::Interrupted(sig);
    if (round >= 3 && platform.NowNanos() >= deadline) break;
    for (std::uint32_t i = 0; i < o.wal_commits_per_round; ++i) {
      if (Status s = writer.Commit(o.wal_rows_per_commit); !s.ok()) return s;
      ++r->commits;
    }
    WalSample sample;
    sample.t_ms = double(platform.NowNanos() - t0) / 1e6;
    sample.commits = r->commits;
    Result<std::uint64_t> size = platform.FileSize(path + "-wal");
    if (!size.ok()) return size.status();
    sample.wal_bytes = *size;
    Result<CheckpointAnswer> passive = Checkpoint(db, "PASSIVE");
    if (!passive.ok()) return passive.status();
    sample.passive = *passive;
    r->checkpoints.push_back(*passive);
    r->series.push_back(sample);
    r->max_wal_bytes = std::max(r->max_wal_bytes, sample.wal_bytes);
  }

  Result<std::uint64_t> seen_after = CountRows(reader);
  if (!seen_after.ok()) return seen_after.status();
  r->reader_snapshot_stable = *seen_after == r->reader_rows;
  if (Status s = reader.Exec("COMMIT"); !s.ok()) return s;
  if (Status s = reader.Close(); !s.ok()) return s;

  Result<CheckpointAnswer> passive = Checkpoint(db, "PASSIVE");
  if (!passive.ok()) return passive.status();
  r->passive_after_reader = *passive;
  Result<std::uint64_t> size = platform.FileSize(path + "-wal");
  if (!size.ok()) return size.status();
  r->wal_bytes_after_passive = *size;
  r->max_wal_bytes = std::max(r->max_wal_bytes, *size);
  Result<CheckpointAnswer> truncate = Checkpoint(db, "TRUNCATE");
  if (!truncate.ok()) return truncate.status();
  r->truncate = *truncate;
  size = platform.FileSize(path + "-wal");
  if (!size.ok()) return size.status();
  r->wal_bytes_after_truncate = *size;

  if (Status s = VerifyTable(db.get(), writer.committed()); !s.ok()) return s;
  r->verified_rows = writer.committed().rows();
  if (!r->reader_snapshot_stable) {
    return Status::Error(
        fmt::format("the reader's snapshot moved: {} rows, then {}", r->reader_rows, *seen_after));
  }
  writer.Finish();
  return db.Close();
}

}  // namespace

WalGrowthResult RunWalGrowthWorkload(platform::Platform& platform, const std::string& dir,
                                     const WorkloadOptions& o) {
  WalGrowthResult r;
  std::string path = dir + "/wal_growth.db";
  RemoveDatabaseFiles(platform, path);
  if (Status s = Run(platform, path, o, &r); !s.ok()) {
    r.outcome = s.kind() == Status::Kind::kInterrupted ? probes::Outcome::kInterrupted
                                                       : probes::Outcome::kError;
    r.reason = s.message();
  }
  RemoveDatabaseFiles(platform, path);
  return r;
}

}  // namespace durprobe::sqlite_bench
