#include "sqlite_bench/crashsim_recovery.h"

#include <fmt/format.h>

#include <cstring>

#include "platform/scratch.h"
#include "sqlite_bench/crashsim_workload.h"
#include "sqlite_bench/rows.h"
#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {
namespace {

// No sync: the files only need to be readable by the SQLite that opens them next.
Status WriteImage(platform::Platform& platform, const std::string& dir, const DiskImage& image) {
  if (Status s = platform.MakeDirectory(dir); !s.ok()) return s;
  for (const auto& [name, content] : image) {
    platform::OpenFlags flags;
    flags.create = true;
    flags.truncate = true;
    Result<platform::FileHandle> file = platform.Open(dir + "/" + name, flags);
    if (!file.ok()) return file.status();
    Status written = content.empty()
                         ? Status::Ok()
                         : platform.PWrite(file->get(), content.data(), content.size(), 0);
    Status closed = file->Close();
    if (!written.ok()) return written;
    if (!closed.ok()) return closed;
  }
  return Status::Ok();
}

// One line: integrity_check's rows can hold newlines.
RecoveryCheck Corrupt(std::string problem) {
  for (char& c : problem) c = c == '\n' ? ' ' : c;
  return RecoveryCheck{true, std::move(problem), 0};
}

// Rows must be ids 1..n in order with the payload FillPayload gives, n a whole number of commits.
RecoveryCheck ReadBack(Db& db, std::uint32_t rows_per_commit, std::uint32_t payload_bytes) {
  Result<std::string> integrity = db.QueryText("PRAGMA integrity_check");
  if (!integrity.ok()) return Corrupt(integrity.status().message());
  if (*integrity != "ok") return Corrupt("integrity_check: " + *integrity);
  Result<Statement> rows = db.Prepare("SELECT id, payload FROM events ORDER BY id");
  if (!rows.ok()) return Corrupt(rows.status().message());
  std::uint64_t n = 0;
  std::string expected;
  int rc;
  while ((rc = sqlite3_step(rows->get())) == SQLITE_ROW) {
    std::uint64_t id = static_cast<std::uint64_t>(sqlite3_column_int64(rows->get(), 0));
    if (id != n + 1) return Corrupt(fmt::format("row id {} follows {}", id, n));
    FillPayload(id, &expected, payload_bytes);
    const void* blob = sqlite3_column_blob(rows->get(), 1);
    int size = sqlite3_column_bytes(rows->get(), 1);
    if (size != static_cast<int>(expected.size()) ||
        (size > 0 && std::memcmp(blob, expected.data(), expected.size()) != 0)) {
      return Corrupt(fmt::format("row {} has another payload", id));
    }
    ++n;
  }
  if (rc != SQLITE_DONE) return Corrupt(SqliteError(db.get(), rc, "read back").message());
  if (n % rows_per_commit != 0) {
    return Corrupt(
        fmt::format("{} rows: a commit of {} rows is partly present", n, rows_per_commit));
  }
  return RecoveryCheck{false, "", n / rows_per_commit};
}

}  // namespace

RecoveryCheck CheckRecoveredDb(const std::string& path, std::uint32_t rows_per_commit,
                               std::uint32_t payload_bytes) {
  Result<std::unique_ptr<Db>> db = Db::Open(path, nullptr);
  return db.ok() ? ReadBack(**db, rows_per_commit, payload_bytes) : Corrupt(db.status().message());
}

Result<RecoveryCheck> RecoverImage(platform::Platform& platform, const std::string& dir,
                                   const DiskImage& image, std::uint32_t rows_per_commit,
                                   std::uint32_t payload_bytes) {
  if (Status s = WriteImage(platform, dir, image); !s.ok()) {
    (void)platform::RemoveTree(platform, dir);  // the write's failure is the one to report
    return s;
  }
  RecoveryCheck check;
  if (image.count(kCrashDbName) == 0) {
    check = Corrupt("the database file itself is gone");
  } else {
    check = CheckRecoveredDb(dir + "/" + kCrashDbName, rows_per_commit, payload_bytes);
  }
  if (Status s = platform::RemoveTree(platform, dir); !s.ok()) return s;
  return check;
}

std::uint64_t HashImage(const DiskImage& image) {
  std::uint64_t h = 14695981039346656037ull;
  auto mix = [&h](const std::string& s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;  // separator, so ("ab","c") and ("a","bc") differ
  };
  for (const auto& [name, content] : image) {
    mix(name);
    mix(content);
  }
  return h;
}

}  // namespace durprobe::sqlite_bench
