// powercut verify --mode sqlite's read-back (issue 53): a database that fails integrity_check
// while holding every acknowledged row fails the test; a later, never-acknowledged row is in
// flight; the read-back works on a private copy, so a hot journal in the run's directory stays
// as it was, and a journal naming a super-journal is refused before SQLite sees it.
#include "sqlite_bench/powercut_sqlite.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <string>
#include <vector>

#include "analysis/powercut_verdict.h"
#include "platform/owned_files.h"
#include "probes/powercut_record.h"
#include "sqlite_bench/powercut_sqlite_copy.h"
#include "sqlite_bench/sqlite_db.h"
#include "tests/test_dirs.h"

namespace durprobe::sqlite_bench::powercut_sqlite_test {

constexpr char kRun[] = "00112233445566ff";
constexpr std::uint64_t kSlots = 4;
constexpr std::size_t kBytes = 512;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The writer's table, holding rows for records first..last (each in slot seq % kSlots), and the
// witness's run acknowledging acked_to and below.
probes::WitnessRun MakeDatabase(const std::string& dir, std::uint64_t first, std::uint64_t last,
                                std::uint64_t acked_to, const std::string& extra_sql = "") {
  probes::WitnessRun run;
  run.run_id = kRun;
  run.slots = kSlots;
  run.record_size = kBytes;
  auto db = Db::Open(dir + "/" + kPowercutDbName, nullptr);
  EXPECT_TRUE(db.ok()) << db.status().message();
  EXPECT_TRUE((*db)
                  ->Exec("CREATE TABLE records(slot INTEGER PRIMARY KEY, seq INTEGER NOT NULL, "
                         "sum INTEGER NOT NULL, body BLOB NOT NULL);" +
                         extra_sql)
                  .ok());
  std::vector<std::uint8_t> r(kBytes);
  for (std::uint64_t seq = 0; seq <= std::max(last, acked_to); ++seq) {
    const std::uint64_t sum = probes::EncodeRecord(seq, kRun, r);
    if (seq <= acked_to) run.acks.push_back({seq, sum});
    if (seq < first || seq > last) continue;
    auto insert =
        (*db)->Prepare("INSERT OR REPLACE INTO records(slot, seq, sum, body) VALUES(?,?,?,?)");
    EXPECT_TRUE(insert.ok());
    sqlite3_bind_int64(insert->get(), 1, static_cast<sqlite3_int64>(seq % kSlots));
    sqlite3_bind_int64(insert->get(), 2, static_cast<sqlite3_int64>(seq));
    sqlite3_bind_int64(insert->get(), 3, static_cast<sqlite3_int64>(sum));
    sqlite3_bind_blob(insert->get(), 4, r.data(), static_cast<int>(r.size()), SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(insert->get()), SQLITE_DONE);
  }
  return run;
}

TEST(PowercutSqlite, EveryRowThereButIntegrityCheckFailingIsAFailedTest) {
  testing_support::TempDir dir;
  // An index that no longer matches its table once its schema line is rewritten: every row of
  // records still reads back, integrity_check reports the index.
  probes::WitnessRun run =
      MakeDatabase(dir.path(), 0, 7, 7,
                   "CREATE TABLE side(x INTEGER, y INTEGER); CREATE INDEX side_x ON side(x);"
                   "INSERT INTO side VALUES(1, 2), (3, 4), (5, 6);");
  {
    auto db = Db::Open(dir.path() + "/" + kPowercutDbName, nullptr);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)
                    ->Exec("PRAGMA writable_schema=ON; UPDATE sqlite_schema SET sql='CREATE "
                           "INDEX side_x ON side(y)' WHERE name='side_x';")
                    .ok());
  }
  Result<SqliteReadBack> back = ReadBackSqliteRecords(dir.path(), run);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_NE(back->integrity, "ok");
  EXPECT_EQ(back->tally.present, kSlots) << "every newest row is there";
  EXPECT_EQ(back->tally.missing + back->tally.torn, 0u);
  model::PowercutEvidence e;
  e.mode = "sqlite";
  e.integrity_check = back->integrity;
  e.acknowledged = back->tally.acknowledged;
  e.overwritten = back->tally.overwritten;
  e.present = back->tally.present;
  EXPECT_EQ(analysis::PowercutVerdictOf(e), model::PowercutVerdict::kFailed);
  e.integrity_check = "ok";
  EXPECT_EQ(analysis::PowercutVerdictOf(e), model::PowercutVerdict::kPassed);
}

TEST(PowercutSqlite, ALaterUnacknowledgedRowIsInFlightAnOlderOneMissing) {
  testing_support::TempDir dir;
  // Rows 0..8 committed; the witness holds acks up to 7: slot 0 holds 8 (never acknowledged).
  probes::WitnessRun run = MakeDatabase(dir.path(), 0, 8, 7);
  Result<SqliteReadBack> back = ReadBackSqliteRecords(dir.path(), run);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->integrity, "ok");
  EXPECT_EQ(back->tally.in_flight, 1u);
  EXPECT_EQ(back->tally.present, 3u);
  EXPECT_EQ(back->tally.missing + back->tally.torn, 0u);
  // Rows only up to 5: slots 2 and 3 hold 2 and 3, older than the acknowledged 6 and 7.
  testing_support::TempDir older;
  probes::WitnessRun lost = MakeDatabase(older.path(), 0, 5, 7);
  back = ReadBackSqliteRecords(older.path(), lost);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->tally.missing, 2u);
  EXPECT_EQ(back->tally.in_flight, 0u);
}

Result<SqliteReadBack> ReadCopy(const std::string& dir, const probes::WitnessRun& run) {
  platform::Platform& p = platform::Default();
  auto top = platform::OpenOwnedAt(p, platform::kNoDirectory, dir, true);
  if (!top.ok()) return top.status();
  auto db = platform::OpenOwnedAt(p, top->handle.get(), kPowercutDbName, false);
  if (!db.ok()) return db.status();
  const int dir_fd = top->handle.get();
  return ReadBackSqliteCopy(p, std::move(*db), run,
                            [&](const std::string& name) -> Result<platform::OwnedHandle> {
                              auto f = platform::OpenOwnedAt(p, dir_fd, name, false);
                              if (!f.ok() && f.status().error_number() == ENOENT) {
                                return platform::OwnedHandle{};
                              }
                              return f;
                            });
}

TEST(PowercutSqlite, TheCopyIsRecoveredAndTheRunsDirectoryIsLeftAsItWas) {
  testing_support::TempDir dir;
  probes::WitnessRun run = MakeDatabase(dir.path(), 0, 7, 7);
  // A hot journal: a transaction's journal left behind as a crash leaves it (copied while the
  // transaction is open, then put back after the connection is gone).
  const std::string db_path = dir.path() + "/" + kPowercutDbName;
  std::string hot;
  {
    auto db = Db::Open(db_path, nullptr);
    ASSERT_TRUE(db.ok());
    ASSERT_TRUE((*db)
                    ->Exec("PRAGMA journal_mode=DELETE; PRAGMA cache_size=1; BEGIN; "
                           "UPDATE records SET body=zeroblob(512);")
                    .ok());
    hot = ReadAll(db_path + "-journal");
    const std::string image = ReadAll(db_path);
    ASSERT_TRUE((*db)->Exec("ROLLBACK;").ok());
    (void)(*db)->Close();
    std::ofstream(db_path, std::ios::binary) << image;
  }
  ASSERT_FALSE(hot.empty());
  std::ofstream(db_path + "-journal", std::ios::binary) << hot;
  Result<SqliteReadBack> back = ReadCopy(dir.path(), run);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(ReadAll(db_path + "-journal"), hot) << "SQLite touched the run's own journal";
  EXPECT_EQ(back->tally.present, kSlots) << "the copy was rolled back to the committed rows";
}

TEST(PowercutSqlite, AJournalNamingASuperJournalIsRefusedAndTheNamedFileSurvives) {
  testing_support::TempDir dir;
  testing_support::TempDir elsewhere;
  probes::WitnessRun run = MakeDatabase(dir.path(), 0, 7, 7);
  const std::string precious = elsewhere.path() + "/precious";
  std::ofstream(precious) << "root's own file\n";
  // A journal whose trailer names precious as its super-journal: the name, its length, a
  // checksum, the journal magic.
  std::string journal(512, '\0');
  const std::string name = precious + std::string(1, '\0');
  std::string trailer = std::string(4, '\0') + name;
  const std::uint32_t len = static_cast<std::uint32_t>(name.size());
  for (int i = 3; i >= 0; --i) trailer += static_cast<char>(len >> (8 * i));
  trailer += std::string(4, '\0');
  trailer += std::string("\xd9\xd5\x05\xf9\x20\xa1\x63\xd7", 8);
  std::ofstream(dir.path() + "/" + kPowercutDbName + "-journal", std::ios::binary)
      << journal + trailer;
  Result<SqliteReadBack> back = ReadCopy(dir.path(), run);
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("super-journal"), std::string::npos)
      << back.status().message();
  EXPECT_EQ(ReadAll(precious), "root's own file\n");
  const std::uint8_t plain[16] = {};
  EXPECT_FALSE(NamesSuperJournal(plain));
}

}  // namespace durprobe::sqlite_bench::powercut_sqlite_test
