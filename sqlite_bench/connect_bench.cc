// Connection cost: open + one lookup + close, as a PHP request that opens
// its database each time does, against one connection kept open with its statement prepared.
#include "sqlite_bench/connect_bench.h"

#include <fmt/format.h>

#include "platform/interrupt.h"
#include "probes/histogram.h"
#include "sqlite_bench/kv_table.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::sqlite_bench {
namespace {

constexpr std::uint64_t kMaxOps = 20000;

// One lookup of row i on db with stmt (prepared there), checking the value it returns.
Status LookupOnce(Db& db, sqlite3_stmt* stmt, std::uint64_t i, std::string* expected) {
  std::string key = KvKey(i);
  sqlite3_bind_text(stmt, 1, key.data(), static_cast<int>(key.size()), SQLITE_TRANSIENT);
  int rc = sqlite3_step(stmt);
  bool match = false;
  if (rc == SQLITE_ROW) {
    KvValue(i, expected);
    const unsigned char* v = sqlite3_column_text(stmt, 0);
    match = v && *expected == reinterpret_cast<const char*>(v);
  }
  sqlite3_reset(stmt);
  if (rc != SQLITE_ROW) return SqliteError(db.get(), rc, "lookup " + key);
  if (!match) return Status::Error("lookup " + key + " returned a value it was not given");
  return Status::Ok();
}

Status Reopen(const std::string& path, std::uint64_t i, std::string* expected) {
  Result<std::unique_ptr<Db>> db = Db::Open(path, nullptr);
  if (!db.ok()) return db.status();
  Result<Statement> stmt = (*db)->Prepare(kKvLookupSql);
  if (!stmt.ok()) return stmt.status();
  if (Status s = LookupOnce(**db, stmt->get(), i, expected); !s.ok()) return s;
  *stmt = Statement();
  return (*db)->Close();
}

Status RunMode(platform::Platform& platform, const std::string& path, bool reuse,
               const WorkloadOptions& o, std::uint64_t deadline, ConnectResult* r) {
  r->mode = reuse ? "reuse" : "reopen";
  r->rows = o.kv_rows;
  std::unique_ptr<Db> kept;
  Statement stmt;
  if (reuse) {
    Result<std::unique_ptr<Db>> db = Db::Open(path, nullptr);
    if (!db.ok()) return db.status();
    kept = std::move(*db);
    Result<Statement> prepared = kept->Prepare(kKvLookupSql);
    if (!prepared.ok()) return prepared.status();
    stmt = std::move(*prepared);
  }
  probes::Histogram latency;
  std::uint64_t total_ns = 0;
  std::string expected;
  for (std::uint64_t op = 0; op < kMaxOps; ++op) {
    if (int sig = platform::InterruptSignal(); sig != 0) return Status::Interrupted(sig);
    if (op >= 100 && platform.NowNanos() >= deadline) break;
    std::uint64_t i = op % o.kv_rows;  // as the seed: k0, k1, ...
    std::uint64_t t0 = platform.NowNanos();
    Status s = reuse ? LookupOnce(*kept, stmt.get(), i, &expected) : Reopen(path, i, &expected);
    std::uint64_t t1 = platform.NowNanos();
    if (!s.ok()) return s;
    latency.Record(t1 - t0);
    total_ns += t1 - t0;
    ++r->ops;
  }
  r->seconds = double(total_ns) / 1e9;
  r->us_per_op = r->ops ? double(total_ns) / 1e3 / double(r->ops) : 0.0;
  r->latency = probes::Summarize(latency);
  stmt = Statement();
  return kept ? kept->Close() : Status::Ok();
}

}  // namespace

std::vector<ConnectResult> RunConnectWorkload(platform::Platform& platform, const std::string& dir,
                                              const WorkloadOptions& o) {
  std::vector<ConnectResult> results;
  std::string path = dir + "/connect.db";
  RemoveDatabaseFiles(platform, path);
  std::uint64_t start = platform.NowNanos();
  // As in a server whose other workers hold it, another connection keeps the WAL database
  // open meanwhile; otherwise every close, being the last, would checkpoint and delete the WAL
  // and -shm files, and every open would create them again.
  std::unique_ptr<Db> holder;
  Status prepared = [&]() -> Status {
    Result<std::unique_ptr<Db>> db = Db::Open(path, nullptr);
    if (!db.ok()) return db.status();
    holder = std::move(*db);
    if (Status s = holder->Exec("PRAGMA journal_mode=WAL"); !s.ok()) return s;
    if (Status s = PopulateKv(*holder, o.kv_rows); !s.ok()) return s;
    Result<std::uint64_t> rows = VerifyKv(*holder, o.kv_rows);
    return rows.ok() ? Status::Ok() : rows.status();
  }();
  std::uint64_t used = platform.NowNanos() - start;
  std::uint64_t per_mode = (o.budget_ns > used ? o.budget_ns - used : 0) / 2;
  for (bool reuse : {false, true}) {
    ConnectResult r;
    Status s = prepared.ok() ? RunMode(platform, path, reuse, o, platform.NowNanos() + per_mode, &r)
                             : prepared;
    if (!s.ok()) {
      r.mode = reuse ? "reuse" : "reopen";
      r.outcome = s.kind() == Status::Kind::kInterrupted ? probes::Outcome::kInterrupted
                                                         : probes::Outcome::kError;
      r.reason = s.message();
    }
    results.push_back(r);
    if (r.outcome == probes::Outcome::kInterrupted) break;
  }
  if (holder) (void)holder->Close();  // measured already; its files are removed next
  RemoveDatabaseFiles(platform, path);
  return results;
}

}  // namespace durprobe::sqlite_bench
