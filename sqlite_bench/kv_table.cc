#include "sqlite_bench/kv_table.h"

#include <charconv>

#include <fmt/format.h>

namespace durprobe::sqlite_bench {

std::string KvKey(std::uint64_t i) { return fmt::format("k{}", i); }

void KvValue(std::uint64_t i, std::string* value) {
  FillPayload(i, value, kKvValueBytes);
  for (char& c : *value) c = static_cast<char>('a' + static_cast<unsigned char>(c) % 26);
}

Status PopulateKv(Db& db, std::uint64_t n) {
  if (Status s = db.Exec(kKvCreateSql); !s.ok()) return s;
  if (Status s = db.Exec("BEGIN"); !s.ok()) return s;
  Result<Statement> insert = db.Prepare("INSERT INTO kv (k, v) VALUES (?1, ?2)");
  if (!insert.ok()) return insert.status();
  sqlite3_stmt* stmt = insert->get();
  std::string key, value;
  for (std::uint64_t i = 0; i < n; ++i) {
    key = KvKey(i);
    KvValue(i, &value);
    sqlite3_bind_text(stmt, 1, key.data(), static_cast<int>(key.size()), SQLITE_STATIC);
    sqlite3_bind_text(stmt, 2, value.data(), static_cast<int>(value.size()), SQLITE_STATIC);
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE) {
      Status s = SqliteError(db.get(), rc, "populate kv");
      (void)db.Exec("ROLLBACK");  // the insert's failure is the one to report
      return s;
    }
  }
  *insert = Statement();
  return db.Exec("COMMIT");
}

Result<std::uint64_t> VerifyKv(Db& db, std::uint64_t n) {
  RowChecksum expected;
  std::string value;
  for (std::uint64_t i = 0; i < n; ++i) {
    std::string key = KvKey(i);
    KvValue(i, &value);
    expected.Add(i + 1, (key + value).data(), key.size() + value.size());
  }
  Result<Statement> scan = db.Prepare("SELECT rowid, k, v FROM kv ORDER BY rowid");
  if (!scan.ok()) return scan.status();
  RowChecksum got;
  int rc;
  while ((rc = sqlite3_step(scan->get())) == SQLITE_ROW) {
    std::string row(reinterpret_cast<const char*>(sqlite3_column_text(scan->get(), 1)));
    row += reinterpret_cast<const char*>(sqlite3_column_text(scan->get(), 2));
    got.Add(static_cast<std::uint64_t>(sqlite3_column_int64(scan->get(), 0)), row.data(),
            row.size());
  }
  if (rc != SQLITE_DONE) return SqliteError(db.get(), rc, "verify kv");
  if (got.rows() != expected.rows() || got.value() != expected.value()) {
    return Status::Error(fmt::format(
        "kv checksum mismatch: wrote {} rows ({:016x}), read back {} rows ({:016x})",
        expected.rows(), expected.value(), got.rows(), got.value()));
  }
  return got.rows();
}

Result<std::int64_t> PragmaInt(Db& db, const std::string& pragma) {
  Result<std::string> text = db.QueryText(pragma);
  if (!text.ok()) return text.status();
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || end != text->data() + text->size() || text->empty()) {
    return Status::Error(fmt::format("'{}' answered '{}', not an integer", pragma, *text));
  }
  return v;
}

void RemoveDatabaseFiles(platform::Platform& platform, const std::string& path) {
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
    std::string file = path + suffix;
    // What stays is removed with the scratch directory, which reports a failure.
    if (platform.KindOf(file) != platform::PathKind::kMissing) (void)platform.Unlink(file);
  }
}

Status CreateDatabase(platform::Platform& platform, const std::string& path, const char* journal,
                      std::initializer_list<const char*> statements) {
  RemoveDatabaseFiles(platform, path);
  Result<std::unique_ptr<Db>> db = Db::Open(path, nullptr);
  if (!db.ok()) return db.status();
  Result<std::string> mode = (*db)->QueryText(std::string("PRAGMA journal_mode=") + journal);
  if (!mode.ok()) return mode.status();
  for (const char* sql : statements) {
    if (Status s = (*db)->Exec(sql); !s.ok()) return s;
  }
  return (*db)->Close();
}

}  // namespace durprobe::sqlite_bench
