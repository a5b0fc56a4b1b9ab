// InferSqlite against the sync patterns Python's sqlite3 (SQLite 3.40) made on ext4, as
// `durprobe watch` recorded them: each fixture is one transaction's syncs, in order, with the
// bytes written to each file since its previous sync (J journal, B database, D directory, W WAL).
#include "analysis/watch_sqlite.h"

#include <gtest/gtest.h>

#include <sstream>

namespace durprobe::analysis {
namespace {

std::vector<SqliteFileSync> Repeat(const std::string& pattern, int times,
                                   const std::string& tail = "") {
  std::vector<SqliteFileSync> out;
  int round = 0;
  auto add = [&](const std::string& text) {
    std::istringstream in(text);
    std::string token;
    while (in >> token) {
      model::WatchFileKind kind = token[0] == 'J'   ? model::WatchFileKind::kSqliteJournal
                                  : token[0] == 'B' ? model::WatchFileKind::kSqliteDatabase
                                  : token[0] == 'W' ? model::WatchFileKind::kSqliteWal
                                                    : model::WatchFileKind::kDirectory;
      // One transaction every 0.1 s, from the window's start.
      out.push_back({kind, std::stoull(token.substr(1)), 0.1 * static_cast<double>(round)});
    }
  };
  for (; round < times; ++round) add(pattern);
  add(tail);
  return out;
}

constexpr double kSeconds = 10.0;

TEST(WatchSqliteTest, DeleteFullIsTwoJournalSyncsTheDirectoryAndTheDatabase) {
  model::WatchSqlite s = InferSqlite(7, "/d/t.db", Repeat("J8720 D0 J12 B8192", 50), {}, kSeconds);
  EXPECT_EQ(s.journal_mode, model::SqliteJournalSeen::kDelete);
  EXPECT_EQ(s.synchronous, model::SqliteSyncSeen::kFull);
  EXPECT_TRUE(s.durable);
  EXPECT_EQ(s.transactions, 50u);
  // 50 commits 0.1 s apart: 10 a second while it ran, not 5 over the 10 s window.
  EXPECT_NEAR(*s.transactions_per_second, 10.0, 1e-9);
  EXPECT_DOUBLE_EQ(*s.syncs_per_transaction, 4.0);
  EXPECT_TRUE(s.small_transactions);  // 8 KiB each: a row per transaction
}

TEST(WatchSqliteTest, DeleteNormalSyncsTheJournalOnce) {
  model::WatchSqlite s = InferSqlite(7, "/d/t.db", Repeat("J8720 D0 B8192", 50), {}, kSeconds);
  EXPECT_EQ(s.journal_mode, model::SqliteJournalSeen::kDelete);
  EXPECT_EQ(s.synchronous, model::SqliteSyncSeen::kNormal);
  EXPECT_DOUBLE_EQ(*s.syncs_per_transaction, 3.0);
}

TEST(WatchSqliteTest, TruncateAndPersistSyncTheJournalAgainAfterTheDatabase) {
  model::WatchSqlite t =
      InferSqlite(7, "/d/t.db", Repeat("J8720 D0 J12 B8192 J0", 30), {}, kSeconds);
  EXPECT_EQ(t.journal_mode, model::SqliteJournalSeen::kTruncateOrPersist);
  EXPECT_EQ(t.synchronous, model::SqliteSyncSeen::kFull);
  model::WatchSqlite p = InferSqlite(7, "/d/t.db", Repeat("J8720 D0 B8192 J28", 30), {}, kSeconds);
  EXPECT_EQ(p.journal_mode, model::SqliteJournalSeen::kTruncateOrPersist);
  EXPECT_EQ(p.synchronous, model::SqliteSyncSeen::kNormal);
}

TEST(WatchSqliteTest, OneLargeTransactionIsNotCalledAutocommit) {
  model::WatchSqlite s =
      InferSqlite(7, "/d/t.db", Repeat("J4100000 D0 J12 B4096000", 1), {}, kSeconds);
  EXPECT_EQ(s.transactions, 1u);
  EXPECT_DOUBLE_EQ(*s.transactions_per_second, 0.1);  // one commit: over the window
  EXPECT_FALSE(s.small_transactions);
  // Many transactions, but each of hundreds of pages: batched, not one statement each.
  model::WatchSqlite big =
      InferSqlite(7, "/d/t.db", Repeat("J409600 D0 J12 B409600", 40), {}, kSeconds);
  EXPECT_FALSE(big.small_transactions);
}

TEST(WatchSqliteTest, WalFullSyncsTheWalPerCommitAndCheckpointsApart) {
  // A WAL opened (its header synced), 30 commits, a checkpoint at close.
  model::WatchSqlite s =
      InferSqlite(7, "/d/t.db", Repeat("W4120", 30, "W32 D0 W0 B12288"), {}, kSeconds);
  EXPECT_EQ(s.journal_mode, model::SqliteJournalSeen::kWal);
  EXPECT_EQ(s.synchronous, model::SqliteSyncSeen::kFull);
  EXPECT_TRUE(s.durable);
  EXPECT_EQ(s.transactions, 30u);
}

TEST(WatchSqliteTest, WalNormalSyncsOnlyAtCheckpoints) {
  // The database made in rollback mode, switched to WAL, then 3 checkpoints of 4 MB each.
  model::WatchSqlite s =
      InferSqlite(7, "/d/t.db", Repeat("W4120000 B114688", 3, "W32 D0"), {}, kSeconds);
  std::vector<SqliteFileSync> with_start = Repeat("J512 D0 J12 B4096 W32 D0", 1);
  for (const SqliteFileSync& x : Repeat("W4120000 B114688", 3)) with_start.push_back(x);
  model::WatchSqlite switched = InferSqlite(7, "/d/t.db", with_start, {0, 0, 40000}, kSeconds);
  for (const model::WatchSqlite& w : {s, switched}) {
    EXPECT_EQ(w.journal_mode, model::SqliteJournalSeen::kWal);
    EXPECT_EQ(w.synchronous, model::SqliteSyncSeen::kNormal);
    EXPECT_FALSE(w.durable);                   // a commit is not on the disk when it returns
    EXPECT_FALSE(w.transactions.has_value());  // commits do not sync: not counted
  }
}

TEST(WatchSqliteTest, WritesAndNoSyncAreSynchronousOff) {
  model::WatchSqlite rollback = InferSqlite(7, "/d/t.db", {}, {81920, 8720, 0}, kSeconds);
  EXPECT_EQ(rollback.journal_mode, model::SqliteJournalSeen::kDelete);
  EXPECT_EQ(rollback.synchronous, model::SqliteSyncSeen::kOff);
  EXPECT_FALSE(rollback.durable);
  model::WatchSqlite wal = InferSqlite(7, "/d/t.db", {}, {4096000, 0, 4120000}, kSeconds);
  EXPECT_EQ(wal.journal_mode, model::SqliteJournalSeen::kWal);
  EXPECT_EQ(wal.synchronous, model::SqliteSyncSeen::kOff);
  EXPECT_FALSE(wal.durable);
}

TEST(WatchSqliteTest, AWalWithoutACheckpointCannotTellNormalFromOff) {
  model::WatchSqlite s = InferSqlite(7, "/d/t.db", {}, {0, 0, 400000}, kSeconds);
  EXPECT_EQ(s.journal_mode, model::SqliteJournalSeen::kWal);
  EXPECT_EQ(s.synchronous, model::SqliteSyncSeen::kUnknown);
  EXPECT_TRUE(s.durable);  // not shown otherwise: unknown, said in the evidence
  EXPECT_NE(s.evidence.find("NORMAL or OFF"), std::string::npos);
}

}  // namespace
}  // namespace durprobe::analysis
