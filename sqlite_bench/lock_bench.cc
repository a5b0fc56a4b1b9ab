// Lock behaviour with busy_timeout 0: a second writer while a first one
// holds a write transaction, and a writer committing while a reader is inside a transaction, in
// rollback-journal (DELETE) and WAL modes. The holder is one connection; the contender is
// another, on a second thread or in a forked process (file locks are per process: this is how
// PHP-FPM workers meet SQLite).
#include "sqlite_bench/lock_bench.h"

#include <fmt/format.h>

#include <thread>

#include "platform/child_process.h"
#include "platform/interrupt.h"
#include "platform/thread.h"
#include "sqlite_bench/kv_table.h"
#include "sqlite_bench/past_deadline.h"
#include "sqlite_bench/workloads.h"

namespace durprobe::sqlite_bench {
namespace {

enum class Case { kWriterVsWriter, kReaderVsCommit };

const char* NameOf(Case c) {
  return c == Case::kWriterVsWriter ? "writer_vs_writer" : "reader_vs_commit";
}

// What the contender got, as a frame a child process can send: "ok|busy|error", the statement,
// SQLite's message, separated by tabs.
struct Contention {
  std::string outcome, step, message;
  std::string Encode() const { return outcome + '\t' + step + '\t' + message; }
  static Contention Decode(const std::string& s) {
    Contention c;
    std::size_t a = s.find('\t'), b = a == std::string::npos ? a : s.find('\t', a + 1);
    if (b == std::string::npos) return {"error", "", "garbled result: " + s};
    return {s.substr(0, a), s.substr(a + 1, b - a - 1), s.substr(b + 1)};
  }
};

// The second party: a writer that tries BEGIN IMMEDIATE (writer_vs_writer) or a whole update
// (reader_vs_commit). A successful writer_vs_writer attempt rolls back, so the row's final
// value only depends on the case's outcome.
Contention Contend(const std::string& path, Case c) {
  Result<std::unique_ptr<Db>> opened = Db::Open(path, nullptr);
  if (!opened.ok()) return {"error", "open", opened.status().message()};
  Db& db = **opened;
  if (Status s = db.Exec("PRAGMA busy_timeout=0"); !s.ok()) return {"error", "pragma", s.message()};
  const char* steps[] = {"BEGIN IMMEDIATE", "UPDATE kv SET v = 'w' WHERE k = 'a'", "COMMIT"};
  int n = c == Case::kWriterVsWriter ? 1 : 3;
  for (int i = 0; i < n; ++i) {
    int rc = sqlite3_exec(db.get(), steps[i], nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) continue;
    Contention got{IsBusy(rc) ? "busy" : "error", i == 1 ? "UPDATE" : steps[i],
                   sqlite3_errmsg(db.get())};
    // The contention is the outcome to report; the rollback only ends the transaction.
    if (sqlite3_get_autocommit(db.get()) == 0) (void)db.Exec("ROLLBACK");
    return got;
  }
  if (c == Case::kWriterVsWriter) {
    if (Status s = db.Exec("ROLLBACK"); !s.ok()) return {"error", "ROLLBACK", s.message()};
  }
  return {"ok", "", ""};
}

// The first party takes its lock and keeps it while run_contender runs.
Status Hold(const std::string& path, Case c, const std::function<Status()>& run_contender) {
  Result<std::unique_ptr<Db>> opened = Db::Open(path, nullptr);
  if (!opened.ok()) return opened.status();
  Db& db = **opened;
  if (Status s = db.Exec("PRAGMA busy_timeout=0"); !s.ok()) return s;
  if (c == Case::kWriterVsWriter) {
    if (Status s = db.Exec("BEGIN IMMEDIATE; UPDATE kv SET v = 'w1' WHERE k = 'a'"); !s.ok())
      return s;
  } else {
    // A read transaction that has read: its SHARED lock (or WAL snapshot) lasts until it ends.
    if (Status s = db.Exec("BEGIN; SELECT * FROM kv"); !s.ok()) return s;
  }
  Status contended = run_contender();
  Status ended = db.Exec(c == Case::kWriterVsWriter ? "ROLLBACK" : "COMMIT");
  if (!contended.ok()) return contended;
  if (!ended.ok()) return ended;
  return db.Close();
}

Status ViaThread(const std::string& path, Case c, Contention* got) {
  return Hold(path, c, [&] {
    Result<std::thread> contender = platform::StartThread([&] { *got = Contend(path, c); });
    if (!contender.ok()) return contender.status();
    contender->join();
    return Status::Ok();
  });
}

Status ViaProcess(platform::Platform& platform, const std::string& path, Case c, Contention* got) {
  // The child starts before the parent opens the database (see platform::ChildProcess::Start).
  Result<std::unique_ptr<platform::ChildProcess>> child =
      platform::ChildProcess::Start(platform, [&](platform::ChildChannel& channel) {
        if (!channel.Receive().ok()) return 1;
        return channel.SendFrame(Contend(path, c).Encode()).ok() ? 0 : 1;
      });
  if (!child.ok()) return child.status();
  return Hold(path, c, [&]() -> Status {
    if (Status s = (*child)->Send('g'); !s.ok()) return s;
    Result<std::string> frame = (*child)->ReceiveFrame();
    if (!frame.ok()) return frame.status();
    *got = Contention::Decode(*frame);
    Result<int> code = (*child)->Wait();
    if (!code.ok()) return code.status();
    return *code == 0 ? Status::Ok() : Status::Error(fmt::format("contender exited {}", *code));
  });
}

Result<std::string> RowValue(const std::string& path) {
  Result<std::unique_ptr<Db>> db = Db::Open(path, nullptr);
  if (!db.ok()) return db.status();
  return (*db)->QueryText("SELECT v FROM kv WHERE k = 'a'");
}

LockResult RunCase(platform::Platform& platform, const std::string& path, const char* journal,
                   Case c, bool processes) {
  LockResult r;
  r.journal_mode = journal;
  r.lock_case = NameOf(c);
  r.via = processes ? "processes" : "threads";
  Contention got;
  Status s =
      CreateDatabase(platform, path, journal, {kKvCreateSql, "INSERT INTO kv VALUES ('a', '1')"});
  if (s.ok()) s = processes ? ViaProcess(platform, path, c, &got) : ViaThread(path, c, &got);
  if (s.ok() && got.outcome == "error") s = Status::Error(got.step + ": " + got.message);
  if (s.ok()) {
    r.lock_outcome = got.outcome;
    r.busy_at = got.step;
    r.message = got.message;
    // Only a committed update changes the row: the first writer always rolls back.
    r.expected_value.assign(1, c == Case::kReaderVsCommit && got.outcome == "ok" ? 'w' : '1');
    Result<std::string> value = RowValue(path);
    if (!value.ok()) {
      s = value.status();
    } else {
      r.final_value = *value;
      if (r.final_value != r.expected_value) {
        s = Status::Error(fmt::format("row holds '{}' afterwards, expected '{}'", r.final_value,
                                      r.expected_value));
      }
    }
  }
  if (!s.ok()) {
    r.outcome = probes::Outcome::kError;
    r.reason = s.message();
  }
  RemoveDatabaseFiles(platform, path);
  return r;
}

}  // namespace

std::vector<LockResult> RunLockWorkload(platform::Platform& platform, const std::string& dir,
                                        std::uint64_t deadline_ns, std::vector<std::string>* cut) {
  std::vector<LockResult> results;
  std::string path = dir + "/locks.db";
  for (bool processes : {false, true}) {
    for (const char* journal : {"DELETE", "WAL"}) {
      for (Case c : {Case::kWriterVsWriter, Case::kReaderVsCommit}) {
        // Each case is short; SIGINT/SIGTERM stops before the next one.
        if (platform::InterruptSignal() != 0) return results;
        if (!results.empty() && PastDeadline(platform, deadline_ns)) {
          if (cut != nullptr) {
            cut->push_back(fmt::format("locks: {} {} via {}", journal, NameOf(c),
                                       processes ? "processes" : "threads"));
          }
          continue;
        }
        results.push_back(RunCase(platform, path, journal, c, processes));
      }
    }
  }
  return results;
}

}  // namespace durprobe::sqlite_bench
