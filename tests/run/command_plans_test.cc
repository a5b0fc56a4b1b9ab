// What each command's request turns into (run/command_plans.h): the budget and its defaults,
// what runs, and the parts' sizes. A default changed here changes what every user measures, so
// each is spelt out as a figure rather than read back from the code under test.
#include "run/command_plans.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "gate/wal_sync_method.h"
#include "probes/op_cost.h"
#include "run/budget.h"
#include "run/plan_parts.h"
#include "sqlite_bench/commit_bench.h"

namespace durprobe::run {
namespace {

constexpr std::uint64_t kSec = 1'000'000'000;
constexpr std::uint64_t kMiB = 1u << 20;

platform::Platform& P() { return platform::Default(); }

const std::vector<std::string> kOnePath{"/a"};
const std::vector<std::string> kTwoPaths{"/a", "/b"};

BudgetRequest Quick() {
  BudgetRequest b;
  b.quick = true;
  return b;
}

BudgetRequest Budget(const std::string& text) {
  BudgetRequest b;
  b.budget = text;
  return b;
}

TEST(CommandPlansTest, EachCommandsDefaultAndQuickBudget) {
  const ProbeRequest probe;
  const SqliteMatrixRequest matrix;
  struct Case {
    const char* command;
    std::uint64_t default_ns, quick_ns;
    std::function<Result<Plan>(const BudgetRequest&)> make;
  };
  const std::vector<Case> cases = {
      {"run", 60 * kSec, 5 * kSec,
       [&](const BudgetRequest& b) { return MakeRunPlan(P(), kOnePath, probe, matrix, b); }},
      {"probe", 30 * kSec, 5 * kSec,
       [&](const BudgetRequest& b) { return MakeProbeCommandPlan(P(), kOnePath, probe, b); }},
      {"sqlite", 30 * kSec, 10 * kSec,
       [&](const BudgetRequest& b) { return MakeSqliteCommandPlan(P(), kOnePath, {}, b); }},
      {"compare", 60 * kSec, 10 * kSec,
       [&](const BudgetRequest& b) { return MakeComparePlan(P(), kTwoPaths, {}, b); }},
  };
  for (const Case& c : cases) {
    Result<Plan> normal = c.make(BudgetRequest{});
    ASSERT_TRUE(normal.ok()) << c.command << ": " << normal.status().message();
    EXPECT_EQ(normal->command, c.command);
    EXPECT_EQ(normal->budget_ns, c.default_ns) << c.command;
    EXPECT_EQ(normal->options["quick"], false) << c.command;
    EXPECT_EQ(normal->options["budget_ns"], c.default_ns) << c.command;
    Result<Plan> quick = c.make(Quick());
    ASSERT_TRUE(quick.ok()) << c.command;
    EXPECT_EQ(quick->budget_ns, c.quick_ns) << c.command;
    EXPECT_EQ(quick->options["quick"], true) << c.command;
    // --budget wins over --quick's.
    BudgetRequest both = Budget("2s");
    both.quick = true;
    Result<Plan> given = c.make(both);
    ASSERT_TRUE(given.ok()) << c.command;
    EXPECT_EQ(given->budget_ns, 2 * kSec) << c.command;
    EXPECT_FALSE(c.make(Budget("soon")).ok()) << c.command;
  }
  // check's, with room for inspect and setup within 5 s at --quick.
  EXPECT_EQ(*ResolveBudget(BudgetRequest{}, kCheckBudget), 30 * kSec);
  EXPECT_EQ(*ResolveBudget(Quick(), kCheckBudget), 3'500'000'000u);
}

TEST(CommandPlansTest, RepeatAndFlushCountingAreRecorded) {
  BudgetRequest b;
  b.repeat = 3;
  b.no_flush_count = true;
  Result<Plan> plan = MakeProbeCommandPlan(P(), kTwoPaths, {}, b);
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->repeats, 3);
  EXPECT_FALSE(plan->count_flushes);
  EXPECT_EQ(plan->paths, kTwoPaths);
  Result<Plan> counted = MakeProbeCommandPlan(P(), kTwoPaths, {}, BudgetRequest{});
  ASSERT_TRUE(counted.ok());
  EXPECT_TRUE(counted->count_flushes);
  EXPECT_EQ(counted->repeats, 1);
}

TEST(CommandPlansTest, ProbeSharesTheBudgetOverThePathsAtFivePercent) {
  Result<Plan> plan = MakeProbeCommandPlan(P(), kTwoPaths, {}, BudgetRequest{});
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->run_inspect);
  EXPECT_TRUE(plan->run_probes);
  EXPECT_FALSE(plan->run_sqlite);
  EXPECT_FALSE(plan->run_concurrency);
  EXPECT_EQ(plan->schedule, Schedule::kPathByPath);
  ASSERT_FALSE(plan->probes.specs.empty());
  EXPECT_EQ(plan->probes.op_options.file_size, 16 * kMiB);
  EXPECT_DOUBLE_EQ(plan->probes.rule.target_ci, 0.05);
  // Each path gets half of 30 s.
  EXPECT_EQ(plan->probes.rule.max_ns, probes::PlanRule(15 * kSec, plan->probes.specs, 0.05).max_ns);
  for (const probes::ProbeSpec& s : plan->probes.specs) {
    EXPECT_TRUE(s.write_size == 4096 || s.write_size == 0) << s.write_size;
  }
}

TEST(CommandPlansTest, ProbeSizesFileSizeAndCi) {
  ProbeRequest r;
  r.primitives = {"fdatasync"};
  r.patterns = {"overwrite"};
  r.sizes = {"8k", "64k"};
  r.file_size = "1MiB";
  r.target_ci_percent = 2.0;
  Result<Plan> plan = MakeProbeCommandPlan(P(), kOnePath, r, BudgetRequest{});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->probes.specs.size(), 2u);
  EXPECT_EQ(plan->probes.specs[0].write_size, 8192u);
  EXPECT_EQ(plan->probes.specs[1].write_size, 65536u);
  EXPECT_EQ(plan->probes.op_options.file_size, 1 * kMiB);
  EXPECT_DOUBLE_EQ(plan->probes.rule.target_ci, 0.02);

  r.file_size = "32k";
  Result<Plan> small = MakeProbeCommandPlan(P(), kOnePath, r, BudgetRequest{});
  ASSERT_FALSE(small.ok());
  EXPECT_NE(small.status().message().find("--file-size 32768 is smaller than the write size"),
            std::string::npos);
}

TEST(CommandPlansTest, ProbePgIsPgTestFsyncsTableAndRefusesASelection) {
  ProbeRequest r;
  r.pg = true;
  Result<Plan> plan = MakeProbeCommandPlan(P(), kOnePath, r, BudgetRequest{});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->probes.specs, gate::PgTestFsyncSpecs());
  EXPECT_EQ(plan->options["pg_test_fsync"], true);
  r.sizes = {"4k"};
  Result<Plan> refused = MakeProbeCommandPlan(P(), kOnePath, r, BudgetRequest{});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--pg measures pg_test_fsync's own probes"),
            std::string::npos);
}

TEST(CommandPlansTest, ProbeWritersTakeTheirCellsOutOfTheProbesShare) {
  ProbeRequest r;
  Result<Plan> alone = MakeProbeCommandPlan(P(), kOnePath, r, BudgetRequest{});
  r.writers.writers = {"4"};
  Result<Plan> plan = MakeProbeCommandPlan(P(), kOnePath, r, BudgetRequest{});
  ASSERT_TRUE(alone.ok() && plan.ok()) << plan.status().message();
  ASSERT_TRUE(plan->run_concurrency);
  const ConcurrencyPlan& c = plan->concurrency;
  EXPECT_EQ(c.writers, (std::vector<std::uint32_t>{1, 4}));  // 1 always: scaling is against it
  EXPECT_EQ(c.modes, probes::AllWriterModes());
  EXPECT_EQ(c.primitive, probes::Primitive::kFdatasync);
  EXPECT_EQ(c.write_size, 4096u);
  EXPECT_EQ(c.queue_depth_file_size, 16 * kMiB);
  // Every cell runs its whole slice, after five warm-up operations.
  EXPECT_EQ(c.rule.min_ns, c.rule.max_ns);
  EXPECT_EQ(c.rule.warmup_ops, 5u);
  EXPECT_DOUBLE_EQ(c.rule.target_ci, 0.0);
  EXPECT_EQ(c.queue_depth_ns, c.rule.max_ns);
  // Two writer counts x three modes + the queue-depth run: seven cells, each as long as a probe.
  const std::uint64_t share = ConcurrencyShare(30 * kSec, 7, plan->probes.specs.size());
  EXPECT_EQ(plan->probes.rule.max_ns,
            probes::PlanRule(30 * kSec - share, plan->probes.specs, 0.05).max_ns);
  EXPECT_LT(plan->probes.rule.max_ns, alone->probes.rule.max_ns);

  r.patterns = {"append"};
  EXPECT_FALSE(MakeProbeCommandPlan(P(), kOnePath, r, BudgetRequest{}).ok());
}

TEST(CommandPlansTest, RunGivesHalfOfEachPathToTheProbesAndHalfToTheMatrix) {
  Result<Plan> plan = MakeRunPlan(P(), kTwoPaths, {}, {}, BudgetRequest{});
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->run_inspect && plan->run_probes && plan->run_sqlite);
  EXPECT_FALSE(plan->run_concurrency);  // behind --writers
  EXPECT_FALSE(plan->run_workloads || plan->run_crashsim || plan->run_faults);
  // 60 s over two paths, half each: 15 s of probes and 15 s of matrix per path.
  EXPECT_EQ(plan->probes.rule.max_ns, probes::PlanRule(15 * kSec, plan->probes.specs, 0.05).max_ns);
  // DELETE and WAL x FULL, NORMAL, OFF; one row a commit, one prepared INSERT, 100-byte rows.
  const std::vector<sqlite_bench::CommitConfig>& configs = plan->sqlite.configs;
  ASSERT_EQ(configs.size(), 6u);
  for (const sqlite_bench::CommitConfig& c : configs) {
    EXPECT_TRUE(c.journal == sqlite_bench::JournalMode::kDelete ||
                c.journal == sqlite_bench::JournalMode::kWal);
    EXPECT_EQ(c.rows_per_commit, 1u);
    EXPECT_EQ(c.statement, sqlite_bench::StatementMode::kReused);
    EXPECT_EQ(c.payload_bytes, 100u);
  }
  EXPECT_EQ(plan->sqlite.options.budget_ns, sqlite_bench::PerConfigBudget(15 * kSec, 6));
  EXPECT_EQ(plan->sqlite.options.repetitions, 5u);
  EXPECT_EQ(plan->sqlite.options.warmup_commits, 20u);
  EXPECT_EQ(plan->sqlite.options.fixed_commits, 0u);
}

TEST(CommandPlansTest, SqlitePayloadIsOneByteToOneMiB) {
  SqliteMatrixRequest m;
  m.payload = "1MiB";
  EXPECT_TRUE(MakeRunPlan(P(), kOnePath, {}, m, BudgetRequest{}).ok());
  m.payload = "2MiB";
  EXPECT_FALSE(MakeRunPlan(P(), kOnePath, {}, m, BudgetRequest{}).ok());
  m.payload = "0";
  EXPECT_FALSE(MakeRunPlan(P(), kOnePath, {}, m, BudgetRequest{}).ok());
}

TEST(CommandPlansTest, SqliteSplitsTheMatrixItsProbesAndTheWorkloads) {
  SqliteRequest r;
  Result<Plan> plan = MakeSqliteCommandPlan(P(), kOnePath, r, BudgetRequest{});
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->run_sqlite && plan->run_probes);
  EXPECT_FALSE(plan->run_workloads || plan->run_crashsim);
  // 15% of 30 s to the correlation probes, the rest to the six configurations.
  EXPECT_EQ(plan->sqlite.options.budget_ns, sqlite_bench::PerConfigBudget(25'500'000'000, 6));
  EXPECT_EQ(plan->probes.specs, CorrelationProbePlan(P(), 4'500'000'000).specs);
  EXPECT_EQ(plan->probes.rule.max_ns, CorrelationProbePlan(P(), 4'500'000'000).rule.max_ns);

  r.workloads.workloads = {"read"};  // the matrix only when "commits" is named
  Result<Plan> workloads = MakeSqliteCommandPlan(P(), kOnePath, r, BudgetRequest{});
  ASSERT_TRUE(workloads.ok());
  EXPECT_FALSE(workloads->run_sqlite || workloads->run_probes);
  EXPECT_TRUE(workloads->run_workloads);
  EXPECT_EQ(workloads->workloads.workloads,
            std::vector<sqlite_bench::Workload>{sqlite_bench::Workload::kRead});
  EXPECT_EQ(workloads->workloads.options.budget_ns, 30 * kSec);
  EXPECT_EQ(workloads->workloads.options.threads, 10u);
  EXPECT_EQ(workloads->workloads.options.processes, 4u);
  EXPECT_DOUBLE_EQ(workloads->workloads.options.write_share, 1.0 / 3.0);

  r.workloads.workloads = {"commits", "read"};
  r.no_probes = true;
  r.crashsim = true;
  Result<Plan> both = MakeSqliteCommandPlan(P(), kOnePath, r, BudgetRequest{});
  ASSERT_TRUE(both.ok());
  EXPECT_TRUE(both->run_sqlite && both->run_workloads && both->run_crashsim);
  EXPECT_FALSE(both->run_probes);
  EXPECT_EQ(both->workloads.options.budget_ns, 15 * kSec);
  EXPECT_EQ(both->crashsim.configs.size(), 6u);  // the matrix's journal x synchronous x batch
  EXPECT_EQ(both->crashsim.options.trials, 100u);
}

TEST(CommandPlansTest, CompareInterleavesFullSlicesOverThePaths) {
  CompareRequest r;
  Result<Plan> plan = MakeComparePlan(P(), kTwoPaths, r, BudgetRequest{});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->schedule, Schedule::kInterleaved);
  EXPECT_EQ(plan->ops, probes::AllFileOps());
  EXPECT_TRUE(plan->run_sqlite);
  // Every path the whole slice: no early stop on one path and not on another.
  EXPECT_DOUBLE_EQ(plan->probes.rule.target_ci, 0.0);
  EXPECT_EQ(plan->probes.rule.min_ns, plan->probes.rule.max_ns);
  CompareSplit split = SplitCompare(60 * kSec, 2, plan->probes.specs.size(), plan->ops.size(), 3,
                                    /*sqlite=*/true);
  EXPECT_EQ(plan->rounds, split.rounds);
  EXPECT_EQ(split.rounds, 3);  // the default --rounds fits 60 s
  EXPECT_EQ(plan->sqlite.options.budget_ns,
            sqlite_bench::PerConfigBudget(split.sqlite_ns, plan->sqlite.configs.size()));

  r.no_sqlite = true;
  r.rounds = 1;
  Result<Plan> probes_only = MakeComparePlan(P(), kTwoPaths, r, BudgetRequest{});
  ASSERT_TRUE(probes_only.ok());
  EXPECT_FALSE(probes_only->run_sqlite);
  EXPECT_EQ(probes_only->rounds, 1);
  EXPECT_GT(probes_only->probes.rule.max_ns, plan->probes.rule.max_ns);
}

TEST(CommandPlansTest, CrashsimDefaultsAndDevice) {
  CrashsimRequest r;
  Plan plan = MakeCrashsimCommandPlan(kOnePath, r);
  EXPECT_EQ(plan.command, "crashsim");
  EXPECT_TRUE(plan.run_crashsim && plan.run_inspect);
  EXPECT_FALSE(plan.run_probes || plan.run_sqlite);
  EXPECT_EQ(plan.budget_ns, 0u);                 // no deadline: every trial runs
  EXPECT_EQ(plan.crashsim.configs.size(), 16u);  // four journal modes x four levels
  EXPECT_EQ(plan.crashsim.options.trials, 100u);
  EXPECT_EQ(plan.crashsim.options.seed, 1u);
  EXPECT_EQ(plan.crashsim.options.workload.commits, 12u);
  EXPECT_TRUE(plan.crashsim.options.powersafe_overwrite);
  EXPECT_FALSE(plan.crashsim.options.device.sequential);

  r.journal_modes = {"wal"};
  r.synchronous = {"full", "normal"};
  r.batches = {"1", "10"};
  r.device = {"sequential"};
  r.no_psow = true;
  plan = MakeCrashsimCommandPlan(kOnePath, r);
  EXPECT_EQ(plan.crashsim.configs.size(), 4u);
  EXPECT_TRUE(plan.crashsim.options.device.sequential);
  EXPECT_FALSE(plan.crashsim.options.device.atomic_sectors);
  EXPECT_FALSE(plan.crashsim.options.powersafe_overwrite);
}

}  // namespace
}  // namespace durprobe::run
