// crashtest against crashsim: the same class (none lost, commits lost, corrupt) agrees, another
// differs, and a configuration crashsim did not run has no comparison.
#include "analysis/crashtest_agreement.h"

#include <gtest/gtest.h>

namespace durprobe::report {
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
  Target t;
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
  Target t;
  t.crashtest = {Tested(Synchronous::kFull, 0, 0)};
  t.crashtest[0].outcome = probes::Outcome::kError;
  t.crashsim = {Simulated(Synchronous::kFull, 0, 0)};
  CompareWithCrashsim(t);
  EXPECT_FALSE(t.crashtest[0].agrees_with_crashsim.has_value());
}

}  // namespace crashtest_agreement_test
}  // namespace durprobe::report
