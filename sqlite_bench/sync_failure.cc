#include "sqlite_bench/sync_failure.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cerrno>
#include <functional>
#include <memory>
#include <sstream>
#include <string>

#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {
namespace {

constexpr const char* kDbName = "faults.db";
constexpr std::uint64_t kRowsBefore = 3;

// What a new connection finds: the rows, and whether the file is sound.
struct Found {
  std::string verdict;  // "committed", "rolled_back", "corrupt", "unreadable"
  std::uint64_t rows = 0;
  std::string detail;
};

Found Look(const std::string& path) {
  Found f;
  Result<std::unique_ptr<Db>> db = Db::Open(path, nullptr);
  if (!db.ok()) return {"unreadable", 0, db.status().message()};
  Result<std::string> check = (*db)->QueryText("PRAGMA integrity_check");
  // A check that cannot run (a hot journal on a filesystem gone read-only cannot be rolled
  // back) is no verdict on the file: unreadable, with SQLite's words.
  if (!check.ok()) return {"unreadable", 0, check.status().message()};
  if (*check != "ok") {
    return {"corrupt", 0, *check};
  }
  Result<std::string> rows = (*db)->QueryText("SELECT count(*) FROM t");
  if (!rows.ok()) return {"unreadable", 0, rows.status().message()};
  f.rows = std::stoull(*rows);
  f.verdict = f.rows > kRowsBefore    ? "committed"
              : f.rows == kRowsBefore ? "rolled_back"
                                      : "corrupt";
  if (f.rows < kRowsBefore) f.detail = fmt::format("{} rows of the {} synced", f.rows, kRowsBefore);
  return f;
}

// Runs body in a forked child and returns what it wrote, or why the child died: SQLite maps the
// WAL index (-shm) shared, and on a filesystem that went read-only after the failure a write to
// that mapping is a SIGBUS, which would take the run with it.
struct ChildSaid {
  bool ok = false;
  std::string text;  // body's words, or the error that ended the child
};

ChildSaid InChild(platform::Platform& platform, const std::function<std::string()>& body) {
  Result<platform::Pipe> pipe = platform.MakePipe();
  if (!pipe.ok()) return {false, pipe.status().message()};
  const int write_fd = pipe->write.get();
  Result<int> pid = platform.Spawn([&]() {
    (void)pipe->read.Close();
    std::string text = body();
    return platform.WriteAll(write_fd, text.data(), text.size()).ok() ? 0 : 1;
  });
  (void)pipe->write.Close();
  if (!pid.ok()) return {false, pid.status().message()};
  std::string text;
  char buf[512];
  for (;;) {
    Result<std::size_t> n = platform.ReadSome(pipe->read.get(), buf, sizeof buf);
    if (!n.ok() || *n == 0) break;
    text.append(buf, *n);
  }
  Result<int> code = platform.WaitChild(*pid);
  if (!code.ok()) return {false, code.status().message()};
  return {*code == 0, text};
}

// Look in a child: "verdict rows detail".
Found LookSafely(platform::Platform& platform, const std::string& path) {
  ChildSaid said = InChild(platform, [&]() {
    Found f = Look(path);
    return fmt::format("{} {} {}", f.verdict, f.rows, f.detail);
  });
  if (!said.ok) return {"killed", 0, said.text};
  Found f;
  std::istringstream in(said.text);
  in >> f.verdict >> f.rows;
  std::getline(in >> std::ws, f.detail);
  return f;
}

}  // namespace

probes::SqliteSyncFailure RunSqliteSyncFailure(platform::Platform& platform,
                                               platform::CrashDevice& device,
                                               const platform::FsSpec& fs, JournalMode journal) {
  probes::SqliteSyncFailure r;
  r.journal_mode = NameOf(journal);
  auto stop = [&](const Status& s) {
    r.status = probes::OutcomeOf(s);
    r.reason = s.message();
    (void)device.ClearWriteFaults();
    (void)device.Unmount();
    return r;
  };
  Result<std::string> mnt = device.Mount(fs);
  if (!mnt.ok()) return stop(mnt.status());
  const std::string path = *mnt + "/" + kDbName;
  // The transaction, in a child (InChild): "ok", SQLite's error, or "setup: ..." when the
  // database could not be made.
  ChildSaid said = InChild(platform, [&]() -> std::string {
    Result<std::unique_ptr<Db>> db = Db::Open(path, nullptr);
    if (!db.ok()) return "setup: " + db.status().message();
    Status s =
        (*db)->Exec(fmt::format("PRAGMA journal_mode={}; PRAGMA synchronous=FULL; "
                                "CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB);",
                                NameOf(journal)));
    for (std::uint64_t i = 1; s.ok() && i <= kRowsBefore; ++i) {
      s = (*db)->Exec(fmt::format("INSERT INTO t VALUES({}, zeroblob(100))", i));
    }
    if (!s.ok()) return "setup: " + s.message();
    // The failing transaction's row carries the marker: every write that holds it fails.
    platform::WriteFault w;
    w.count = 0;
    w.error = EIO;
    w.marker = std::string(platform::kFaultMarker);
    if (Status f = device.InjectWriteFault(w); !f.ok()) return "setup: " + f.message();
    std::string payload;
    while (payload.size() < 3000) payload += w.marker;
    Status commit = (*db)->Exec("INSERT INTO t VALUES(" + std::to_string(kRowsBefore + 1) + ", '" +
                                payload + "')");
    std::string result = "ok";
    if (!commit.ok()) {
      const int code = sqlite3_extended_errcode((*db)->get());
      result = fmt::format("{} ({})", sqlite3_errstr(code), code);
    }
    (void)device.ClearWriteFaults();
    (void)(*db)->Close();  // what closing does after the failure is part of the outcome
    return result;
  });
  (void)device.ClearWriteFaults();  // the child's, when it died holding them
  if (said.ok && said.text.rfind("setup: ", 0) == 0) return stop(Status::Error(said.text));
  r.rows_before = kRowsBefore;
  r.commit = said.ok ? said.text : "the process died: " + said.text;
  Found now = LookSafely(platform, path);
  r.reopened = now.verdict;
  r.rows_reopened = now.rows;
  r.detail = now.detail;
  if (Status s = device.Unmount(); !s.ok()) return stop(s);
  Result<std::string> again = device.Mount(fs);
  if (!again.ok()) {
    r.remounted = "unreadable";
    r.detail = again.status().message();
    return r;
  }
  Found later = LookSafely(platform, path);
  r.remounted = later.verdict;
  r.rows_remounted = later.rows;
  if (r.detail.empty()) r.detail = later.detail;
  if (Status s = device.Unmount(); !s.ok()) return stop(s);
  return r;
}

}  // namespace durprobe::sqlite_bench
