#include "sqlite_bench/powercut_sqlite.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <span>
#include <vector>

#include "probes/powercut_record.h"
#include "sqlite_bench/sqlite_db.h"

namespace durprobe::sqlite_bench {

namespace {

// What the row of ack a's slot says of it: present (its body is the record, with the witness's
// checksum), in flight (a later commit of the run the witness never heard of replaced it: the
// row is that record, whole, committed or being committed at the cut), missing (an older record
// of the run) or torn.
probes::RecordState RowState(std::span<const std::uint8_t> body, std::uint64_t row_seq,
                             std::uint64_t row_sum, const probes::WitnessAck& a,
                             const probes::WitnessRun& run, std::uint64_t highest) {
  if (body.size() != run.record_size) return probes::RecordState::kTorn;
  if (row_seq > highest && row_seq % run.slots == a.sequence % run.slots) {
    std::vector<std::uint8_t> later(body.size());
    const std::uint64_t sum = probes::EncodeRecord(row_seq, run.run_id, later);
    const bool whole = sum == row_sum && std::equal(body.begin(), body.end(), later.begin());
    return whole ? probes::RecordState::kInFlight : probes::RecordState::kTorn;
  }
  const probes::RecordState state = probes::CheckRecord(body, a.sequence, run.run_id, a.checksum);
  if (state == probes::RecordState::kPresent && row_sum != a.checksum) {
    return probes::RecordState::kTorn;
  }
  return state;  // an older record in the row (the later commit lost) is missing
}

}  // namespace

std::string PowercutSqliteMode(const PowercutSqliteConfig& c) {
  return fmt::format("sqlite:{}:{}", NameOf(c.journal), NameOf(c.sync));
}

Result<probes::PowercutWriteResult> WriteSqliteRecords(platform::Platform& platform,
                                                       const std::string& dir, int socket,
                                                       const std::string& run_id,
                                                       const probes::PowercutWriterOptions& options,
                                                       const PowercutSqliteConfig& config,
                                                       const std::function<Status()>& ready) {
  Result<std::unique_ptr<Db>> db = Db::Open(dir + "/" + kPowercutDbName, nullptr);
  if (!db.ok()) return db.status();
  const std::string setup = fmt::format(
      "PRAGMA journal_mode={}; PRAGMA synchronous={}; CREATE TABLE records(slot INTEGER PRIMARY "
      "KEY, seq INTEGER NOT NULL, sum INTEGER NOT NULL, body BLOB NOT NULL);",
      NameOf(config.journal), NameOf(config.sync));
  if (Status s = (*db)->Exec(setup); !s.ok()) return s;
  Result<std::string> mode = (*db)->QueryText("PRAGMA journal_mode");
  if (!mode.ok()) return mode.status();
  std::string kept = *mode;
  for (char& c : kept) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (kept != NameOf(config.journal)) {
    return Status::Unsupported(
        fmt::format("journal_mode={} refused here: SQLite kept {}", NameOf(config.journal), *mode));
  }
  if (Status s = ready(); !s.ok()) return s;
  // Record seq takes row seq % slots: the table stays the size --file-size gives the file.
  const std::uint64_t slots = options.file_bytes / options.record_size;
  Result<Statement> insert =
      (*db)->Prepare("INSERT OR REPLACE INTO records(slot, seq, sum, body) VALUES(?,?,?,?)");
  if (!insert.ok()) return insert.status();
  sqlite3_stmt* stmt = insert->get();
  sqlite3* handle = (*db)->get();
  probes::PowercutWriteResult r = probes::AckRecords(
      platform, socket, run_id, options,
      [&](std::uint64_t seq, std::span<const std::uint8_t> record, std::uint64_t) -> Status {
        sqlite3_reset(stmt);
        sqlite3_bind_int64(stmt, 1, static_cast<sqlite3_int64>(seq % slots));
        sqlite3_bind_int64(stmt, 2, static_cast<sqlite3_int64>(seq));
        // The record's checksum sits at byte 40 (probes/powercut_record.h); the row keeps it
        // as SQLite's signed integer, bit for bit.
        std::uint64_t sum = 0;
        for (int i = 7; i >= 0; --i) sum = (sum << 8) | record[40 + static_cast<std::size_t>(i)];
        sqlite3_bind_int64(stmt, 3, static_cast<sqlite3_int64>(sum));
        sqlite3_bind_blob(stmt, 4, record.data(), static_cast<int>(record.size()), SQLITE_STATIC);
        const int rc = sqlite3_step(stmt);  // autocommit: the COMMIT returns with the step
        if (rc != SQLITE_DONE) return SqliteError(handle, rc, fmt::format("commit of row {}", seq));
        return Status::Ok();
      });
  sqlite3_reset(stmt);
  return r;
}

Result<SqliteReadBack> ReadBackSqliteRecords(const std::string& dir, const probes::WitnessRun& run,
                                             const char* vfs) {
  Result<std::unique_ptr<Db>> db = Db::Open(dir + "/" + kPowercutDbName, vfs);
  if (!db.ok()) return db.status();
  SqliteReadBack out;
  Result<std::string> integrity = (*db)->QueryText("PRAGMA integrity_check");
  out.integrity = integrity.ok() ? *integrity : integrity.status().message();
  Result<Statement> select = (*db)->Prepare("SELECT seq, sum, body FROM records WHERE slot = ?");
  if (!select.ok()) {
    // No table at all: the database lost everything, or never had it.
    out.tally = probes::AllMissing(run);
    if (out.integrity == "ok") out.integrity = select.status().message();
    return out;
  }
  const std::vector<std::size_t> newest = probes::NewestPerSlot(run);
  const std::uint64_t highest = probes::HighestAcked(run);
  probes::CountOverwritten(out.tally, run.acks.size() - newest.size());
  sqlite3_stmt* stmt = select->get();
  for (std::size_t i : newest) {
    const probes::WitnessAck& a = run.acks[i];
    sqlite3_reset(stmt);
    sqlite3_bind_int64(stmt, 1, static_cast<sqlite3_int64>(a.sequence % run.slots));
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) {
      probes::CountRecord(out.tally, a.sequence, false, false);
      continue;
    }
    if (rc != SQLITE_ROW) {
      probes::CountRecord(out.tally, a.sequence, false, true);
      continue;
    }
    const auto seq = static_cast<std::uint64_t>(sqlite3_column_int64(stmt, 0));
    const auto sum = static_cast<std::uint64_t>(sqlite3_column_int64(stmt, 1));
    const auto* body = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt, 2));
    const auto bytes = static_cast<std::size_t>(sqlite3_column_bytes(stmt, 2));
    const std::span<const std::uint8_t> row =
        body == nullptr ? std::span<const std::uint8_t>() : std::span(body, bytes);
    probes::CountState(out.tally, a.sequence, RowState(row, seq, sum, a, run, highest));
  }
  sqlite3_reset(stmt);
  return out;
}

}  // namespace durprobe::sqlite_bench
