// The SQLite risk column never claims less loss than durprobe's own crash model finds: crashsim
// runs every journal mode x synchronous level on its default device and with atomic sectors, and
// each row's documented level (on a durable path) must rank at or above what the model saw.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "analysis/durability_risk.h"
#include "sqlite_bench/crashsim.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace {

using sqlite_bench::CrashsimResult;

// What the model found, on the risk column's scale.
sqlite_bench::RiskLevel ModelLevel(const CrashsimResult& r) {
  if (r.corrupt > 0) return sqlite_bench::RiskLevel::kCorruption;
  if (r.lost_commits_max > 1) return sqlite_bench::RiskLevel::kRecentCommits;
  if (r.lost_commits_max == 1) return sqlite_bench::RiskLevel::kLastCommit;
  return sqlite_bench::RiskLevel::kNone;
}

std::vector<CrashsimResult> RunAll(bool atomic_sectors) {
  testing_support::TempDir dir;
  sqlite_bench::CrashsimPlan plan;
  plan.configs = sqlite_bench::DefaultCrashsimConfigs({1});
  plan.options.trials = 40;
  plan.options.workload.commits = 8;
  plan.options.device.atomic_sectors = atomic_sectors;
  return sqlite_bench::RunCrashsim(platform::Default(), dir.path(), plan);
}

void ExpectColumnCoversModel(bool atomic_sectors) {
  model::Durability durable;
  durable.verdict = model::DurabilityVerdict::kDurable;
  std::vector<CrashsimResult> rows = RunAll(atomic_sectors);
  ASSERT_EQ(rows.size(), 16u);
  for (const CrashsimResult& r : rows) {
    std::string label =
        fmt::format("{}/{} atomic_sectors={}", sqlite_bench::NameOf(r.config.journal),
                    sqlite_bench::NameOf(r.config.sync), atomic_sectors);
    ASSERT_EQ(r.outcome, probes::Outcome::kOk) << label << ": " << r.reason;
    ASSERT_EQ(r.trials, 40u) << label;
    model::RowRisk column = analysis::RiskOf(r.config.journal, r.config.sync, durable);
    EXPECT_GE(column.level, ModelLevel(r))
        << label << ": the column says " << NameOf(column.level) << " (" << column.summary
        << ") but the model found " << NameOf(ModelLevel(r)) << " (corrupt " << r.corrupt
        << ", lost max " << r.lost_commits_max << ")";
  }
}

TEST(RiskAgreesWithCrashsimTest, OnTheDefaultDevice) { ExpectColumnCoversModel(false); }

TEST(RiskAgreesWithCrashsimTest, WithAtomicSectors) { ExpectColumnCoversModel(true); }

// SQLite's documentation made visible: DELETE/FULL can lose the last commit to the journal's
// unsynced unlink, and EXTRA, which syncs the directory after it, closes that.
TEST(RiskAgreesWithCrashsimTest, DeleteFullLosesTheLastCommitAndExtraDoesNot) {
  testing_support::TempDir dir;
  sqlite_bench::CrashsimPlan plan;
  plan.configs = {{sqlite_bench::JournalMode::kDelete, sqlite_bench::Synchronous::kFull, 1},
                  {sqlite_bench::JournalMode::kDelete, sqlite_bench::Synchronous::kExtra, 1}};
  plan.options.trials = 100;
  std::vector<CrashsimResult> rows =
      sqlite_bench::RunCrashsim(platform::Default(), dir.path(), plan);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_GT(rows[0].trials_with_loss, 0u);
  EXPECT_EQ(rows[0].lost_commits_max, 1u);
  EXPECT_EQ(rows[1].trials_with_loss, 0u);
  EXPECT_EQ(rows[1].corrupt, 0u);
}

}  // namespace
}  // namespace durprobe
