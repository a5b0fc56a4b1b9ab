#include "explain/trial.h"

#include <gtest/gtest.h>

#include "tests/compare_samples.h"

namespace durprobe::explain {
namespace {

model::SqliteEntry Row(sqlite_bench::JournalMode journal, double commits_per_sec) {
  model::SqliteEntry e;
  e.result.config = {journal, sqlite_bench::Synchronous::kFull};
  e.result.commits_per_sec = commits_per_sec;
  return e;
}

TEST(TrialEffectTest, WalAgainstDeleteQuotesBothRates) {
  model::Target t;
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
  std::vector<model::Target> measured = {testing_support::PathWith("/fuse", 1, 9, 1),
                                         testing_support::PathWith("/under", 1, 1, 1)};
  std::string effect =
      TrialEffect({TrialKind::kComparePaths, "", {"/fuse", "/under"}, ""}, measured);
  EXPECT_EQ(effect.rfind("/under against /fuse: per sync", 0), 0u) << effect;
  EXPECT_NE(effect.find("per op 1/9.00x"), std::string::npos) << effect;
  EXPECT_EQ(TrialEffect({TrialKind::kComparePaths, "", {}, ""}, {}), "nothing was measured");
}

Cause CauseOf(const std::string& key, std::optional<TrialKind> kind, const std::string& command) {
  Cause c;
  c.key = key;
  c.trial.kind = kind;
  c.trial.command = command;
  return c;
}

// drift leads when the disk changed state during a compare; it has no test, so --try tests the
// first cause after it that has one, and says which it passed over.
TEST(CauseToTryTest, ALeadingCauseWithoutATestGivesWayToTheNextThatHasOne) {
  std::string instead;
  const std::vector<Cause> drift_first = {
      CauseOf("drift", std::nullopt, ""),
      CauseOf("barrier", std::nullopt, "mount -o remount,barrier=1 /x"),
      CauseOf("fuse", TrialKind::kComparePaths, "durprobe compare /fuse /under")};
  const Cause* c = CauseToTry(drift_first, instead);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->key, "fuse");
  EXPECT_EQ(instead, "drift");

  // A leading cause with a test, or with a command --try leaves to the user, stays the one.
  const std::vector<Cause> fuse_first = {drift_first[2], drift_first[0]};
  EXPECT_EQ(CauseToTry(fuse_first, instead)->key, "fuse");
  EXPECT_EQ(instead, "");
  const std::vector<Cause> remount_first = {drift_first[1], drift_first[2]};
  EXPECT_EQ(CauseToTry(remount_first, instead)->key, "barrier");
  EXPECT_EQ(instead, "");
  // Nothing after it has a test: the leading cause, which says it has none.
  EXPECT_EQ(CauseToTry({drift_first[0]}, instead)->key, "drift");
  EXPECT_EQ(instead, "");
  EXPECT_EQ(CauseToTry({}, instead), nullptr);
}

}  // namespace
}  // namespace durprobe::explain
