#include "sqlite_bench/commit_spec.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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
  EXPECT_EQ(NameOf(PowerLossRisk(JournalMode::kDelete, Synchronous::kFull).level), "last_commit");
  EXPECT_EQ(NameOf(PowerLossRisk(JournalMode::kDelete, Synchronous::kExtra).level), "none");
  EXPECT_EQ(NameOf(PowerLossRisk(JournalMode::kWal, Synchronous::kFull).level), "none");
  EXPECT_EQ(NameOf(PowerLossRisk(JournalMode::kWal, Synchronous::kNormal).level), "recent_commits");
  EXPECT_EQ(NameOf(PowerLossRisk(JournalMode::kWal, Synchronous::kOff).level), "corruption");
  EXPECT_EQ(NameOf(PowerLossRisk(JournalMode::kDelete, Synchronous::kOff).level), "corruption");
  EXPECT_EQ(NameOf(PowerLossRisk(JournalMode::kMemory, Synchronous::kFull).level), "corruption");
  EXPECT_EQ(NameOf(PowerLossRisk(JournalMode::kOff, Synchronous::kFull).level), "corruption");
}

// Every cell of journal_mode x synchronous, as
// https://www.sqlite.org/pragma.html#pragma_synchronous has it: NORMAL loses recent commits only in
// WAL mode; in the rollback modes it may corrupt.
TEST(CommitSpecTest, RiskOfEveryJournalModeAndLevel) {
  const std::vector<JournalMode> modes = {JournalMode::kDelete,  JournalMode::kTruncate,
                                          JournalMode::kPersist, JournalMode::kMemory,
                                          JournalMode::kWal,     JournalMode::kOff};
  const std::vector<Synchronous> levels = {Synchronous::kOff, Synchronous::kNormal,
                                           Synchronous::kFull, Synchronous::kExtra};
  // Rows: the modes above; columns: OFF, NORMAL, FULL, EXTRA.
  const std::vector<std::vector<std::string>> want = {
      {"corruption", "corruption", "last_commit", "none"},       // DELETE
      {"corruption", "corruption", "none", "none"},              // TRUNCATE
      {"corruption", "corruption", "none", "none"},              // PERSIST
      {"corruption", "corruption", "corruption", "corruption"},  // MEMORY
      {"corruption", "recent_commits", "none", "none"},          // WAL
      {"corruption", "corruption", "corruption", "corruption"},  // OFF
  };
  int cells = 0;
  for (std::size_t m = 0; m < modes.size(); ++m) {
    for (std::size_t l = 0; l < levels.size(); ++l, ++cells) {
      Risk r = PowerLossRisk(modes[m], levels[l]);
      EXPECT_EQ(NameOf(r.level), want[m][l]) << NameOf(modes[m]) << "/" << NameOf(levels[l]);
      if (modes[m] != JournalMode::kWal && levels[l] == Synchronous::kNormal &&
          modes[m] != JournalMode::kMemory && modes[m] != JournalMode::kOff) {
        EXPECT_EQ(r.summary, "small chance of corruption (old filesystems)") << NameOf(modes[m]);
      }
    }
  }
  EXPECT_EQ(cells, 24);
}

}  // namespace
}  // namespace durprobe::sqlite_bench
