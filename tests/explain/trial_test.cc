#include "explain/trial.h"

#include <gtest/gtest.h>

#include "tests/compare_samples.h"

namespace durprobe::report {
namespace {

SqliteEntry Row(sqlite_bench::JournalMode journal, double commits_per_sec) {
  SqliteEntry e;
  e.result.config = {journal, sqlite_bench::Synchronous::kFull};
  e.result.commits_per_sec = commits_per_sec;
  return e;
}

TEST(TrialEffectTest, WalAgainstDeleteQuotesBothRates) {
  Target t;
  t.path = "/data";
  t.sqlite = {Row(sqlite_bench::JournalMode::kDelete, 100),
              Row(sqlite_bench::JournalMode::kWal, 400)};
  EXPECT_EQ(TrialEffect({TrialKind::kSqliteWal, "", {"/data"}, ""}, {t}),
            "on /data: WAL/FULL commits 400/s against DELETE/FULL's 100/s (4.00x)");
  t.sqlite.pop_back();
  EXPECT_EQ(TrialEffect({TrialKind::kSqliteWal, "", {"/data"}, ""}, {t}),
            "DELETE/FULL or WAL/FULL did not complete");
}

TEST(TrialEffectTest, ComparePathsQuotesTheSecondPathsRatios) {
  std::vector<Target> measured = {testing_support::PathWith("/fuse", 1, 9, 1),
                                  testing_support::PathWith("/under", 1, 1, 1)};
  std::string effect =
      TrialEffect({TrialKind::kComparePaths, "", {"/fuse", "/under"}, ""}, measured);
  EXPECT_EQ(effect.rfind("/under against /fuse: per sync", 0), 0u) << effect;
  EXPECT_NE(effect.find("per op 1/9.00x"), std::string::npos) << effect;
  EXPECT_EQ(TrialEffect({TrialKind::kComparePaths, "", {}, ""}, {}), "nothing was measured");
}

}  // namespace
}  // namespace durprobe::report
