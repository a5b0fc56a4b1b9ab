#include "run/scratch_need.h"

#include <gtest/gtest.h>

#include "tests/test_dirs.h"

namespace durprobe::run {
namespace {

using probes::Pattern;
using probes::Primitive;

TEST(ScratchNeedTest, ProbesNeedTheirLargestFileNotTheSum) {
  std::vector<probes::ProbeSpec> specs = {{Primitive::kFsync, Pattern::kOverwrite, 4096},
                                          {Primitive::kFdatasync, Pattern::kAppend, 65536},
                                          {Primitive::kDirFsync, Pattern::kCreate, 0}};
  probes::OpOptions options;
  options.file_size = 8u << 20;
  EXPECT_EQ(ProbeScratchBytes(specs, options), 8u << 20);
  // Only the create probe: two small files.
  EXPECT_EQ(ProbeScratchBytes({specs[2]}, options), 8192u);
  EXPECT_EQ(ProbeScratchBytes({}, options), 0u);
}

TEST(ScratchNeedTest, FixedCommitsCountEveryRowTwiceForTheJournal) {
  sqlite_bench::MatrixPlan plan;
  plan.configs.resize(2);
  plan.configs[0].rows_per_commit = 1;
  plan.configs[0].payload_bytes = 100;
  plan.configs[1].rows_per_commit = 10;
  plan.configs[1].payload_bytes = 100;
  plan.options.fixed_commits = 50;
  plan.options.repetitions = 3;
  plan.options.warmup_commits = 20;
  // (20 + 50 x 3) commits x rows x (100 + 64) bytes x 2, for both configurations (open at once).
  EXPECT_EQ(MatrixScratchBytes(plan), 170u * 1 * 164 * 2 + 170u * 10 * 164 * 2);
}

// The warm-up's rows were left out of a budget-bound plan (issue 57: a batch sweep's x1000 warms
// up on 20,000 rows), and max_rows was taken to cap the minimum commits, which it does not.
TEST(ScratchNeedTest, BudgetBoundCommitsCountTheWarmUpAndTheMinimum) {
  sqlite_bench::MatrixPlan plan;
  plan.configs.resize(1);
  plan.configs[0].rows_per_commit = 1000;
  plan.configs[0].payload_bytes = 36;
  plan.options.min_commits = 3;
  plan.options.repetitions = 5;
  plan.options.warmup_commits = 20;
  EXPECT_EQ(MatrixScratchBytes(plan), (20u + 15u) * 1000 * 100 * 2);
  plan.options.max_rows = 100;
  EXPECT_EQ(MatrixScratchBytes(plan), (20u + 15u) * 1000 * 100 * 2);
}

TEST(ScratchNeedTest, WorkloadsCountTheSeededTableAndTheWalGrowthRows) {
  sqlite_bench::WorkloadPlan plan;
  EXPECT_EQ(WorkloadScratchBytes(plan), 0u);  // none selected
  plan.workloads = sqlite_bench::AllWorkloads();
  plan.options.kv_rows = 1000;
  plan.options.wal_rounds = 2;
  plan.options.wal_commits_per_round = 3;
  plan.options.wal_rows_per_commit = 4;
  EXPECT_EQ(WorkloadScratchBytes(plan), 2u * (1000 + 24) * (100 + 64));
}

TEST(ScratchNeedTest, TheNeedIsTheSelectedPartsPlusSlack) {
  std::vector<probes::ProbeSpec> specs = {{Primitive::kFsync, Pattern::kOverwrite, 4096}};
  ScratchParts parts;
  EXPECT_EQ(ScratchNeedBytes(parts), kScratchSlackBytes);  // inspect only
  parts.probe_specs = &specs;
  parts.op_options.file_size = 1u << 20;
  EXPECT_EQ(ScratchNeedBytes(parts), kScratchSlackBytes + (1u << 20));
}

TEST(ScratchNeedTest, TheMessageSaysNeededAndFree) {
  EXPECT_EQ(NotEnoughSpaceMessage("/data", 1u << 20, 1u << 20), "");
  EXPECT_EQ(NotEnoughSpaceMessage("/data", 17u << 20, 3u << 20),
            "not enough free space in /data: this run needs about 17 MiB of scratch and 3 MiB is "
            "free (free some space)");
  EXPECT_EQ(NotEnoughSpaceMessage("/data", 17u << 20, 3u << 20, "a smaller --file-size"),
            "not enough free space in /data: this run needs about 17 MiB of scratch and 3 MiB is "
            "free (free some space, or ask for less: a smaller --file-size)");
}

// Issue 57: faults counted xfs's image and its base (641 MiB) whatever it made, and crashtest
// 385 MiB; each now counts what its plan makes, one filesystem at a time.
TEST(ScratchNeedTest, TheCrashDeviceCountsTheFilesystemsThePlanMakes) {
  constexpr std::uint64_t kMiB = 1u << 20;
  Plan faults;
  faults.command = "faults";
  faults.run_faults = true;
  EXPECT_EQ(CrashDeviceScratchBytes(faults, "ext4"), 2 * 128 * kMiB);  // the path's own
  EXPECT_EQ(CrashDeviceScratchBytes(faults, "xfs"), 2 * 320 * kMiB);
  faults.faults.filesystems = {{.type = "ext4", .options = ""}, {.type = "btrfs", .options = ""}};
  EXPECT_EQ(CrashDeviceScratchBytes(faults, "xfs"), 2 * 128 * kMiB);  // --fs names them
  faults.faults.filesystems.push_back({.type = "xfs", .options = ""});
  EXPECT_EQ(CrashDeviceScratchBytes(faults, "ext4"), 2 * 320 * kMiB);  // one at a time
  Plan crashtest;
  crashtest.command = "crashtest";
  crashtest.run_crashtest = true;
  EXPECT_EQ(CrashDeviceScratchBytes(crashtest, "ext4"), 3 * 128 * kMiB);
  EXPECT_EQ(CrashDeviceScratchBytes(crashtest, "xfs"), 3 * 320 * kMiB);
  crashtest.crashtest.options.fs.type = "btrfs";
  EXPECT_EQ(CrashDeviceScratchBytes(crashtest, "xfs"), 3 * 128 * kMiB);
  Plan run;
  run.command = "run";
  run.run_probes = true;
  EXPECT_EQ(CrashDeviceScratchBytes(run, "xfs"), 0u);
}

// The refusal said "a smaller --file-size, fewer --commits" to faults, which has neither.
TEST(ScratchNeedTest, AskingForLessNamesOnlyOptionsTheCommandHas) {
  Plan faults;
  faults.command = "faults";
  faults.run_faults = true;
  EXPECT_EQ(AskForLess(faults, "ext4"), "");
  EXPECT_EQ(AskForLess(faults, "xfs"),
            "--fs without xfs (its image is 320 MiB, 128 MiB for the others)");
  Plan sqlite;
  sqlite.command = "sqlite";
  sqlite.run_probes = true;  // sqlite's probes have no --file-size of their own
  sqlite.run_sqlite = true;
  sqlite.run_workloads = true;
  EXPECT_EQ(AskForLess(sqlite, ""), "fewer --commits or a smaller --batch, fewer --workloads");
  Plan run;
  run.command = "run";
  run.run_probes = run.run_sqlite = run.run_concurrency = true;
  EXPECT_EQ(AskForLess(run, ""),
            "a smaller --file-size, fewer --writers, fewer --commits or a smaller --batch");
  Plan crashsim;
  crashsim.command = "crashsim";
  crashsim.run_crashsim = true;
  EXPECT_EQ(AskForLess(crashsim, "xfs"), "");
}

// `sqlite --batch 1,10,100,1000` passed the check on a 115 MiB volume, then its budget-bound
// configurations wrote rows until the volume was full and every row failed.
TEST(ScratchNeedTest, ABudgetBoundSweepsRowsFitTheRoom) {
  sqlite_bench::MatrixPlan plan;
  for (std::uint32_t batch : {1u, 10u, 100u, 1000u}) {
    sqlite_bench::CommitConfig c;
    c.rows_per_commit = batch;
    plan.configs.push_back(c);
  }
  const std::uint64_t room = 115ull << 20;
  const std::uint64_t rows = RowsThatFit(plan, room);
  EXPECT_LT(rows, plan.options.max_rows);
  // Each configuration writes its warm-up, then timed rows up to the cap, past it only for its
  // minimum commits.
  const sqlite_bench::CommitOptions& o = plan.options;
  std::uint64_t written = 0;
  for (const sqlite_bench::CommitConfig& c : plan.configs) {
    const std::uint64_t timed = std::max(rows, o.min_commits * o.repetitions * c.rows_per_commit);
    written +=
        2 * (o.warmup_commits * c.rows_per_commit + timed) * (c.payload_bytes + kRowOverheadBytes);
  }
  EXPECT_LE(written, room);
  EXPECT_GT(written, room / 10 * 9);  // the room is used, not wasted
  // Room to spare: the plan's own limit stands; none: one row (each configuration still runs
  // its min_commits, which the need counted).
  EXPECT_EQ(RowsThatFit(plan, 1ull << 50), plan.options.max_rows);
  EXPECT_EQ(RowsThatFit(plan, 0), 1u);
}

TEST(ScratchNeedTest, NeededAndFreeShareOneUnit) {
  std::string m = NotEnoughSpaceMessage("/d", 2049ull << 20, 1048572ull << 10);
  EXPECT_NE(m.find("about 2049 MiB of scratch and 1024 MiB is free"), std::string::npos) << m;
  EXPECT_NE(NotEnoughSpaceMessage("/d", 17u << 20, 0).find("and 0 B is free"), std::string::npos);
}

TEST(ScratchNeedTest, CheckFreeSpaceAsksThePlatform) {
  testing_support::TempDir dir;
  EXPECT_TRUE(CheckFreeSpace(platform::Default(), dir.path(), 1).ok());
  Status too_much = CheckFreeSpace(platform::Default(), dir.path(), std::uint64_t{1} << 62);
  EXPECT_FALSE(too_much.ok());
  EXPECT_NE(too_much.message().find("not enough free space in " + dir.path()), std::string::npos)
      << too_much.message();
}

}  // namespace
}  // namespace durprobe::run
