// The crash device's two commands' plans from their requests (run/crash_plans.h): what each
// request turns into, and what each refuses before anything runs. Every request names its
// filesystem, so the path's own is never inspected, and dry_run leaves the device unchecked.
#include "run/crash_plans.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace durprobe::run {
namespace crash_plans_test {

const std::vector<std::string> kPaths = {"/data"};

CrashtestRequest OnExt4() {
  CrashtestRequest r;
  r.fs = "ext4";
  return r;
}

std::string Refusal(const Result<Plan>& plan) {
  return plan.ok() ? "(a plan)" : plan.status().message();
}

TEST(CrashPlansTest, CrashtestRunsTheDefaultSettingsPerBatchWithCrashsimBesideThem) {
  CrashtestRequest r = OnExt4();
  r.batches = {"1", "10"};
  r.states = 7;
  r.seed = 42;
  r.commits = 12;
  r.device = "torn";
  r.mount_options = "data=journal";
  Result<Plan> plan = MakeCrashtestPlan(platform::Default(), kPaths, r, true);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->command, "crashtest");
  EXPECT_EQ(plan->paths, kPaths);
  EXPECT_TRUE(plan->run_inspect);
  EXPECT_TRUE(plan->run_crashtest);
  EXPECT_TRUE(plan->run_crashsim);
  // DELETE/FULL, DELETE/EXTRA, TRUNCATE/FULL, WAL/FULL, WAL/NORMAL, DELETE/OFF, WAL/OFF per batch.
  ASSERT_EQ(plan->crashtest.configs.size(), 14u);
  EXPECT_EQ(plan->crashtest.configs[0].rows_per_commit, 1u);
  EXPECT_EQ(plan->crashtest.configs[7].rows_per_commit, 10u);
  EXPECT_EQ(plan->crashsim.configs.size(), plan->crashtest.configs.size());
  EXPECT_EQ(plan->crashsim.options.seed, 42u);
  const sqlite_bench::CrashtestOptions& t = plan->crashtest.options;
  EXPECT_EQ(t.states, 7u);
  EXPECT_EQ(t.seed, 42u);
  EXPECT_EQ(t.workload.commits, 12u);
  EXPECT_EQ(t.mode, platform::CacheMode::kTorn);
  EXPECT_EQ(t.fs.type, "ext4");
  EXPECT_EQ(t.fs.options, "data=journal");
  EXPECT_FALSE(t.only_state.has_value());
}

TEST(CrashPlansTest, CrashtestTakesTheCrossProductOfTheModesAndLevelsGiven) {
  CrashtestRequest r = OnExt4();
  r.journal_modes = {"delete", "wal"};
  r.synchronous = {"full", "normal", "off"};
  r.device = "ignores-flush";
  Result<Plan> plan = MakeCrashtestPlan(platform::Default(), kPaths, r, true);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->crashtest.configs.size(), 6u);
  EXPECT_EQ(plan->crashtest.options.mode, platform::CacheMode::kIgnoresFlush);
}

TEST(CrashPlansTest, CrashtestRefusesOptionsThatDoNotGoTogether) {
  CrashtestRequest no_fs;
  no_fs.mount_options = "data=journal";
  EXPECT_EQ(Refusal(MakeCrashtestPlan(platform::Default(), kPaths, no_fs, true)),
            "--mount-options needs --fs: the path's own filesystem keeps its options");
  CrashtestRequest many = OnExt4();
  many.state = "flush 3";
  EXPECT_EQ(Refusal(MakeCrashtestPlan(platform::Default(), kPaths, many, true)),
            "--state rebuilds a state of one configuration: give one journal mode, one "
            "synchronous level and one batch (here 7 configurations)");
  CrashtestRequest log_alone = OnExt4();
  log_alone.log = "0123456789abcdef";
  EXPECT_EQ(Refusal(MakeCrashtestPlan(platform::Default(), kPaths, log_alone, true)),
            "--log names the log a state was reported on: give --state too");
  CrashtestRequest one = OnExt4();
  one.journal_modes = {"wal"};
  one.synchronous = {"full"};
  one.state = "flush 3";
  one.log = "not-hex";
  EXPECT_EQ(Refusal(MakeCrashtestPlan(platform::Default(), kPaths, one, true)),
            "--log 'not-hex' is not a reported log: 16 hex digits, as the row's log says");
  one.log = "0123456789abcdef";
  Result<Plan> plan = MakeCrashtestPlan(platform::Default(), kPaths, one, true);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_TRUE(plan->crashtest.options.only_state.has_value());
  EXPECT_EQ(plan->crashtest.options.log, "0123456789abcdef");
}

TEST(CrashPlansTest, FaultsGivesMountOptionsToEachFilesystemThatNamesNone) {
  FaultsRequest r;
  r.filesystems = {"ext4", "xfs:noatime"};
  r.mount_options = "nodiratime";
  r.sqlite = false;
  Result<Plan> plan = MakeFaultsPlan(platform::Default(), kPaths, r, true);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->command, "faults");
  EXPECT_TRUE(plan->run_faults);
  EXPECT_FALSE(plan->faults.sqlite);
  ASSERT_EQ(plan->faults.filesystems.size(), 2u);
  EXPECT_EQ(plan->faults.filesystems[0].type, "ext4");
  EXPECT_EQ(plan->faults.filesystems[0].options, "nodiratime");
  EXPECT_EQ(plan->faults.filesystems[1].type, "xfs");
  EXPECT_EQ(plan->faults.filesystems[1].options, "noatime");
}

TEST(CrashPlansTest, FaultsRefusesAFilesystemTheDeviceDoesNotMake) {
  FaultsRequest zfs;
  zfs.filesystems = {"zfs"};
  EXPECT_EQ(Refusal(MakeFaultsPlan(platform::Default(), kPaths, zfs, true)),
            "--fs 'zfs': the crash device makes ext4, xfs or btrfs (TYPE or TYPE:OPTIONS, as in "
            "ext4:data=journal)");
  FaultsRequest no_fs;
  no_fs.mount_options = "data=journal";
  EXPECT_EQ(Refusal(MakeFaultsPlan(platform::Default(), kPaths, no_fs, true)),
            "--mount-options needs --fs: the path's own filesystem keeps its options");
}

}  // namespace crash_plans_test
}  // namespace durprobe::run
