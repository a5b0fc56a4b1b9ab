#include "sqlite_bench/commit_spec.h"

#include <gtest/gtest.h>

namespace durprobe::sqlite_bench {
namespace {

TEST(CommitSpecTest, DefaultSetIsTheSeedsCases) {
  std::vector<CommitConfig> c = ExpandMatrix(MatrixSelection{});
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(Label(c[0]), "DELETE/FULL x1 reused 100B");
  EXPECT_EQ(Label(c[2]), "DELETE/OFF x1 reused 100B");
  EXPECT_EQ(Label(c[5]), "WAL/OFF x1 reused 100B");
}

TEST(CommitSpecTest, AllIsTheWholeMatrixTimesBatchesAndStatements) {
  MatrixSelection sel;
  sel.all = true;
  sel.batches = {1, 10, 100};
  sel.statements = {StatementMode::kReused, StatementMode::kPerRow};
  EXPECT_EQ(ExpandMatrix(sel).size(), 6u * 4u * 3u * 2u);
}

TEST(CommitSpecTest, FullfsyncIsAnExtraDimensionOnlyForFullAndExtra) {
  MatrixSelection sel;
  sel.journals = {JournalMode::kWal};
  sel.fullfsync_dimension = true;
  std::vector<CommitConfig> c = ExpandMatrix(sel);
  ASSERT_EQ(c.size(), 4u);  // FULL, FULL+fullfsync, NORMAL, OFF
  EXPECT_TRUE(c[1].fullfsync.value());
  EXPECT_EQ(Label(c[1]), "WAL/FULL x1 reused 100B fullfsync");
  EXPECT_FALSE(ExpandMatrix(MatrixSelection{})[0].fullfsync.has_value());
}

TEST(CommitSpecTest, NamesRoundTrip) {
  for (const auto& [name, mode] : JournalModeNames()) {
    std::string upper(NameOf(mode));
    for (char& ch : upper) ch = static_cast<char>(std::tolower(ch));
    EXPECT_EQ(upper, name);
  }
  EXPECT_EQ(SynchronousNames().at("extra"), Synchronous::kExtra);
  EXPECT_EQ(NameOf(StatementMode::kPerRow), "per_row");
}

TEST(CommitSpecTest, RiskFollowsSqlitesDocumentation) {
  EXPECT_EQ(PowerLossRisk(JournalMode::kDelete, Synchronous::kFull).level, "last_commit");
  EXPECT_EQ(PowerLossRisk(JournalMode::kDelete, Synchronous::kExtra).level, "none");
  EXPECT_EQ(PowerLossRisk(JournalMode::kWal, Synchronous::kFull).level, "none");
  EXPECT_EQ(PowerLossRisk(JournalMode::kWal, Synchronous::kNormal).level, "recent_commits");
  EXPECT_EQ(PowerLossRisk(JournalMode::kWal, Synchronous::kOff).level, "corruption");
  EXPECT_EQ(PowerLossRisk(JournalMode::kDelete, Synchronous::kOff).level, "corruption");
  EXPECT_EQ(PowerLossRisk(JournalMode::kMemory, Synchronous::kFull).level, "corruption");
  EXPECT_EQ(PowerLossRisk(JournalMode::kOff, Synchronous::kFull).level, "corruption");
}

}  // namespace
}  // namespace durprobe::sqlite_bench
