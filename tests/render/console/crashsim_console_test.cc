// The crashsim table and the loss columns it adds to the commit-matrix table.
#include "render/console/crashsim_console.h"

#include <gtest/gtest.h>

#include <sstream>

#include "render/console/sqlite_console.h"

namespace durprobe::render::console {
namespace {

using sqlite_bench::CrashsimResult;
using sqlite_bench::JournalMode;
using sqlite_bench::Synchronous;

CrashsimResult Row(JournalMode j, Synchronous s, std::uint64_t lost_trials, std::uint64_t corrupt) {
  CrashsimResult r;
  r.config = {j, s, 1};
  r.seed = 9;
  r.device = "none";
  r.commits = 12;
  r.crash_points = 80;
  r.trials = 100;
  r.crash_states = 97;
  r.corrupt = corrupt;
  r.trials_with_loss = lost_trials;
  r.lost_commits_max = lost_trials ? 2 : 0;
  r.lost_commits_mean = lost_trials ? 0.25 : 0.0;
  if (corrupt) r.corrupt_example = "integrity_check: page 2 is never used";
  return r;
}

TEST(CrashsimConsoleTest, TableHasOneRowPerConfigurationAndSaysHowManyStatesWereTried) {
  std::ostringstream out;
  PrintCrashsimTable({Row(JournalMode::kDelete, Synchronous::kFull, 10, 0),
                      Row(JournalMode::kWal, Synchronous::kOff, 30, 20)},
                     out);
  std::string text = out.str();
  EXPECT_NE(text.find("seed 9, device guarantees: none; 12 commits per trial"), std::string::npos)
      << text;
  EXPECT_NE(text.find("DELETE   FULL"), std::string::npos) << text;
  EXPECT_NE(text.find("10 (10%)"), std::string::npos) << "loss share of the 100 readable trials";
  EXPECT_NE(text.find("20 (20%)"), std::string::npos) << "corrupt share";
  EXPECT_NE(text.find("30 (38%)"), std::string::npos) << "30 of the 80 trials not corrupt";
  EXPECT_NE(text.find("WAL/OFF x1: first corrupt image: integrity_check"), std::string::npos);
  EXPECT_NE(text.find("194 distinct crash states tried in 200 trials"), std::string::npos) << text;
}

TEST(CrashsimConsoleTest, NoResultsPrintNothing) {
  std::ostringstream out;
  PrintCrashsimTable({}, out);
  EXPECT_TRUE(out.str().empty());
}

TEST(CrashsimConsoleTest, AFailedConfigurationSaysWhy) {
  CrashsimResult r = Row(JournalMode::kWal, Synchronous::kFull, 0, 0);
  r.trials = 0;
  r.outcome = probes::Outcome::kError;
  r.reason = "disk full";
  std::ostringstream out;
  PrintCrashsimTable({r}, out);
  EXPECT_NE(out.str().find("WAL      FULL     1  error: disk full"), std::string::npos)
      << out.str();
}

TEST(CrashsimConsoleTest, TheCommitMatrixGainsLossColumnsForTheSameConfiguration) {
  model::SqliteEntry delete_full, wal_full;
  delete_full.result.config.journal = JournalMode::kDelete;
  delete_full.result.config.sync = Synchronous::kFull;
  wal_full.result.config.journal = JournalMode::kWal;
  wal_full.result.config.sync = Synchronous::kFull;
  for (model::SqliteEntry* e :
       {&delete_full, &wal_full}) {  // measured rows: the loss cells sit beside
    e->result.commits = 10;
    e->result.timed_ns = 10'000'000;
  }
  std::vector<model::SqliteEntry> entries{delete_full, wal_full};
  std::ostringstream without, with;
  PrintSqliteTable(entries, {}, without);
  EXPECT_EQ(without.str().find("crash: lost"), std::string::npos);
  PrintSqliteTable(entries, {Row(JournalMode::kDelete, Synchronous::kFull, 7, 0)}, with);
  std::string text = with.str();
  EXPECT_NE(text.find("crash: lost"), std::string::npos) << text;
  EXPECT_NE(text.find("7/100 max 2"), std::string::npos) << text;
  EXPECT_NE(text.find("0/100"), std::string::npos) << text;
  EXPECT_EQ(FindCrashsim({Row(JournalMode::kDelete, Synchronous::kFull, 7, 0)}, JournalMode::kWal,
                         Synchronous::kFull, 1),
            nullptr);
}

}  // namespace
}  // namespace durprobe::render::console
