#include "sqlite_bench/crashsim_workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "sqlite_bench/rows.h"
#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {

Status ApplyCrashPragmas(Db& db, const CrashsimConfig& config, const CrashWorkloadOptions& o) {
  std::string want(NameOf(config.journal));
  Result<std::string> mode = db.QueryText("PRAGMA journal_mode=" + want);
  if (!mode.ok()) return mode.status();
  std::string got = *mode;
  std::transform(got.begin(), got.end(), got.begin(), ::toupper);
  if (got != want) {
    return Status::Unsupported(
        fmt::format("SQLite kept journal_mode={} when asked for {}", got, want));
  }
  std::string pragmas = fmt::format("PRAGMA synchronous={}; PRAGMA wal_autocheckpoint={};",
                                    NameOf(config.sync), o.wal_autocheckpoint);
  return db.Exec(pragmas);
}

Status SetupCrashDb(Db& db, const CrashsimConfig& config, const CrashWorkloadOptions& o) {
  if (Status s = ApplyCrashPragmas(db, config, o); !s.ok()) return s;
  return db.Exec(kCreateTableSql);
}

namespace {

bool Step(sqlite3_stmt* stmt) {
  int rc = sqlite3_step(stmt);
  sqlite3_reset(stmt);
  return rc == SQLITE_DONE;
}

}  // namespace

bool CommitCrashRows(Db& db, const CrashStatements& s, std::uint64_t first_id, std::uint32_t rows,
                     std::uint32_t payload_bytes) {
  sqlite3_stmt* begin = s.begin.get();
  sqlite3_stmt* insert = s.insert.get();
  sqlite3_stmt* commit = s.commit.get();
  if (!Step(begin)) return false;
  std::string payload;
  for (std::uint32_t i = 0; i < rows; ++i) {
    FillPayload(first_id + i, &payload, payload_bytes);
    sqlite3_bind_int64(insert, 1, static_cast<sqlite3_int64>(first_id + i));
    sqlite3_bind_blob(insert, 2, payload.data(), static_cast<int>(payload.size()),
                      SQLITE_TRANSIENT);
    if (!Step(insert)) {
      sqlite3_exec(db.get(), "ROLLBACK", nullptr, nullptr, nullptr);
      return false;
    }
  }
  return Step(commit);
}

Result<CrashStatements> PrepareCrashStatements(Db& db) {
  Result<Statement> begin = db.Prepare("BEGIN");
  if (!begin.ok()) return begin.status();
  Result<Statement> insert = db.Prepare(kInsertSql);
  if (!insert.ok()) return insert.status();
  Result<Statement> commit = db.Prepare("COMMIT");
  if (!commit.ok()) return commit.status();
  return CrashStatements{std::move(*begin), std::move(*insert), std::move(*commit)};
}

CrashRun RunCrashWorkload(CrashVfs& vfs, const CrashsimConfig& config,
                          const CrashWorkloadOptions& o, std::uint64_t at_call) {
  CrashRun run;
  vfs.Reset();
  {
    Result<std::unique_ptr<Db>> opened = Db::Open(kCrashDbName, vfs.name());
    if (!opened.ok()) {
      run.status = opened.status();
      return run;
    }
    Db& db = **opened;
    run.status = SetupCrashDb(db, config, o);
    Result<CrashStatements> statements = PrepareCrashStatements(db);
    if (run.status.ok() && !statements.ok()) run.status = statements.status();
    if (!run.status.ok()) {
      vfs.CutPower();
      return run;
    }
    vfs.disk().MakeAllDurable();
    vfs.ArmCrash(at_call);
    std::uint32_t rows = std::max<std::uint32_t>(config.rows_per_commit, 1);
    for (std::uint32_t i = 0; i < o.commits; ++i) {
      bool ok =
          CommitCrashRows(db, *statements, std::uint64_t{i} * rows + 1, rows, o.payload_bytes);
      if (!ok || vfs.crashed()) break;
      ++run.acked;
    }
    run.crashed_inside = vfs.crashed();
    vfs.CutPower();
    run.calls = vfs.calls();
  }  // statements, then the connection, close with the power out: nothing more reaches the disk
  return run;
}

}  // namespace durprobe::sqlite_bench
