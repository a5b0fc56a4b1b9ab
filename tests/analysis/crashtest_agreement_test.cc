// crashtest against crashsim: the same class (none lost, commits lost, corrupt) agrees, another
// differs, and a configuration crashsim did not run has no comparison.
#include "analysis/crashtest_agreement.h"

#include <gtest/gtest.h>

namespace durprobe::analysis {
namespace crashtest_agreement_test {

using sqlite_bench::JournalMode;
using sqlite_bench::Synchronous;

sqlite_bench::CrashtestResult Tested(Synchronous sync, std::uint64_t corrupt, std::uint64_t lost) {
  sqlite_bench::CrashtestResult r;
  r.config = {JournalMode::kWal, sync, 1};
  r.states = 100;
  r.corrupt = corrupt;
  r.lost_states = lost;
  return r;
}

sqlite_bench::CrashsimResult Simulated(Synchronous sync, std::uint64_t corrupt,
                                       std::uint64_t lost) {
  sqlite_bench::CrashsimResult r;
  r.config = {JournalMode::kWal, sync, 1};
  r.trials = 100;
  r.corrupt = corrupt;
  r.trials_with_loss = lost;
  return r;
}

TEST(CrashtestAgreementTest, TheSameClassAgreesAnotherDiffers) {
  model::Target t;
  t.crashtest = {Tested(Synchronous::kFull, 0, 0), Tested(Synchronous::kNormal, 0, 12),
                 Tested(Synchronous::kOff, 3, 10), Tested(Synchronous::kExtra, 0, 0)};
  t.crashsim = {Simulated(Synchronous::kFull, 0, 0), Simulated(Synchronous::kNormal, 0, 0),
                Simulated(Synchronous::kOff, 7, 2)};
  CompareWithCrashsim(t);
  EXPECT_EQ(t.crashtest[0].agrees_with_crashsim, true);
  EXPECT_EQ(t.crashtest[1].agrees_with_crashsim, false);  // lost on the device, not in the model
  EXPECT_EQ(t.crashtest[2].agrees_with_crashsim, true);   // both corrupt
  EXPECT_FALSE(t.crashtest[3].agrees_with_crashsim.has_value()) << "crashsim did not run EXTRA";
  EXPECT_EQ(NameOf(ClassOf(t.crashtest[1])), "commits lost");
  EXPECT_EQ(NameOf(ClassOf(t.crashsim[2])), "corrupt");
}

TEST(CrashtestAgreementTest, ARowThatDidNotRunIsNotCompared) {
  model::Target t;
  t.crashtest = {Tested(Synchronous::kFull, 0, 0)};
  t.crashtest[0].outcome = probes::Outcome::kError;
  t.crashsim = {Simulated(Synchronous::kFull, 0, 0)};
  CompareWithCrashsim(t);
  EXPECT_FALSE(t.crashtest[0].agrees_with_crashsim.has_value());
}

TEST(CrashtestAgreementTest, ADeviceThatIgnoresFlushesIsNotComparedWithTheModel) {
  model::Target t;
  t.crashtest = {Tested(Synchronous::kFull, 5, 9), Tested(Synchronous::kFull, 0, 0)};
  t.crashtest[0].device = "ignores-flush";
  t.crashtest[1].device = "torn";
  t.crashsim = {Simulated(Synchronous::kFull, 0, 0)};
  CompareWithCrashsim(t);
  EXPECT_FALSE(t.crashtest[0].agrees_with_crashsim.has_value());
  EXPECT_EQ(t.crashtest[1].agrees_with_crashsim, true) << "crashsim tears sectors too";
}

sqlite_bench::CrashtestResult OwnFs(JournalMode journal, Synchronous sync, std::uint64_t states,
                                    std::uint64_t corrupt, std::uint64_t lost,
                                    std::uint64_t lost_max) {
  sqlite_bench::CrashtestResult r;
  r.config = {journal, sync, 1};
  r.paths_own_fs = true;
  r.device = "honest";
  r.fs = "ext4";
  r.states = states;
  r.corrupt = corrupt;
  r.lost_states = lost;
  r.lost_max = lost_max;
  return r;
}

TEST(CrashtestAgreementTest, WhatSqliteDocumentsBoundsEachSetting) {
  // FULL in WAL keeps everything; DELETE/FULL may roll back the last commit, no more; WAL/NORMAL
  // may lose the last few but never corrupt; OFF may do anything.
  EXPECT_TRUE(AsDocumented(OwnFs(JournalMode::kWal, Synchronous::kFull, 50, 0, 0, 0)));
  EXPECT_FALSE(AsDocumented(OwnFs(JournalMode::kWal, Synchronous::kFull, 50, 0, 1, 1)));
  EXPECT_FALSE(AsDocumented(OwnFs(JournalMode::kWal, Synchronous::kFull, 50, 1, 0, 0)));
  EXPECT_TRUE(AsDocumented(OwnFs(JournalMode::kDelete, Synchronous::kFull, 50, 0, 20, 1)));
  EXPECT_FALSE(AsDocumented(OwnFs(JournalMode::kDelete, Synchronous::kFull, 50, 0, 20, 2)));
  EXPECT_TRUE(AsDocumented(OwnFs(JournalMode::kDelete, Synchronous::kExtra, 50, 0, 0, 0)));
  EXPECT_TRUE(AsDocumented(OwnFs(JournalMode::kWal, Synchronous::kNormal, 50, 0, 30, 5)));
  EXPECT_FALSE(AsDocumented(OwnFs(JournalMode::kWal, Synchronous::kNormal, 50, 2, 30, 5)));
  EXPECT_TRUE(AsDocumented(OwnFs(JournalMode::kDelete, Synchronous::kOff, 50, 9, 30, 12)));
}

TEST(CrashtestAgreementTest, OnlyThePathsOwnFilesystemOnAnHonestDeviceIsCited) {
  model::Target t;
  t.crashtest = {OwnFs(JournalMode::kWal, Synchronous::kFull, 612, 0, 0, 0),
                 OwnFs(JournalMode::kDelete, Synchronous::kFull, 60, 0, 23, 1),
                 OwnFs(JournalMode::kDelete, Synchronous::kOff, 60, 4, 50, 30)};
  EXPECT_EQ(PathCrashtests(t).size(), 3u);
  EXPECT_EQ(CrashtestCitation(t, JournalMode::kWal, Synchronous::kFull),
            "crash-tested: 0 of 612 states lost a commit");
  EXPECT_EQ(CrashtestCitation(t, JournalMode::kDelete, Synchronous::kFull),
            "crash-tested: 23 of 60 states lost the last commit");
  EXPECT_EQ(CrashtestCitation(t, JournalMode::kDelete, Synchronous::kOff),
            "crash-tested: 4 of 60 states were corrupt, 50 lost commits");
  EXPECT_EQ(CrashtestCitation(t, JournalMode::kWal, Synchronous::kNormal), "")
      << "not tested, nothing cited";
  model::Target other = t;
  for (sqlite_bench::CrashtestResult& r : other.crashtest) r.paths_own_fs = false;  // --fs xfs
  EXPECT_TRUE(PathCrashtests(other).empty());
  model::Target lying = t;
  for (sqlite_bench::CrashtestResult& r : lying.crashtest) r.device = "ignores-flush";
  EXPECT_TRUE(PathCrashtests(lying).empty());
  EXPECT_EQ(CrashtestCitation(lying, JournalMode::kWal, Synchronous::kFull), "");
}

}  // namespace crashtest_agreement_test
}  // namespace durprobe::analysis
