// The parts of a plan the commands share (run/plan_parts.h, run/writers_plan.h) and check's
// plan (run/check_command_plan.h): what a request's words turn into.
#include "run/plan_parts.h"

#include <gtest/gtest.h>

#include "gate/policy.h"
#include "run/check_command_plan.h"
#include "run/check_plan.h"
#include "run/writers_plan.h"
#include "sqlite_bench/commit_bench.h"

namespace durprobe::run {
namespace {

constexpr std::uint64_t kSecond = 1'000'000'000;

TEST(PlanPartsTest, ShareAcceptsFractionsDecimalsAndPercent) {
  EXPECT_DOUBLE_EQ(*ParseShare("1/3"), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(*ParseShare("0.25"), 0.25);
  EXPECT_DOUBLE_EQ(*ParseShare("50%"), 0.5);
  EXPECT_DOUBLE_EQ(*ParseShare("0"), 0.0);
  EXPECT_FALSE(ParseShare("1.5").ok());
  EXPECT_FALSE(ParseShare("1/0").ok());
  EXPECT_FALSE(ParseShare("a third").ok());
}

TEST(PlanPartsTest, WritersAlwaysStartAtOneAscendingWithoutRepeats) {
  EXPECT_EQ(*ParseWriters({"8", " 2", "2 "}), (std::vector<std::uint32_t>{1, 2, 8}));
  EXPECT_EQ(*ParseWriters({"default"}), (std::vector<std::uint32_t>{1, 2, 4, 8, 16}));
  EXPECT_FALSE(ParseWriters({}).ok());
  EXPECT_FALSE(ParseWriters({""}).ok());
  EXPECT_FALSE(ParseWriters({"0"}).ok());
  EXPECT_FALSE(ParseWriters({"two"}).ok());
}

TEST(PlanPartsTest, CellsAreCountsTimesModesPlusTheQueueDepthRun) {
  WritersRequest w;
  EXPECT_EQ(CellCount(w), 0u);
  w.writers = {"default"};
  EXPECT_EQ(CellCount(w), 5u * 3u + 1u);
  w.modes = {"threads"};
  EXPECT_EQ(CellCount(w), 5u + 1u);
  w.writers = {"bogus"};
  EXPECT_EQ(CellCount(w), 0u);
}

TEST(PlanPartsTest, WritersMeasureOverwritesOnly) {
  WritersRequest w;
  EXPECT_TRUE(CheckWritersPatterns(w, {"append"}).ok());  // not asked
  w.writers = {"2"};
  EXPECT_TRUE(CheckWritersPatterns(w, {"overwrite"}).ok());
  Status s = CheckWritersPatterns(w, {"overwrite", "append"});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("not --patterns append"), std::string::npos);
}

TEST(PlanPartsTest, ABudgetTooShortDropsTheLargestWriterCounts) {
  WritersRequest w;
  w.writers = {"2", "16"};
  w.modes = {"threads"};
  // Four cells (1, 2, 16 and the queue depth) of 300 ms need 1.2 s; 0.9 s holds three.
  Result<ConcurrencyPlan> c = MakeConcurrencyPlan(w, 900'000'000, 1u << 20);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->writers, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(c->dropped_writers, (std::vector<std::uint32_t>{16}));
  EXPECT_EQ(c->modes, (std::vector<probes::WriterMode>{probes::WriterMode::kThreads}));
  EXPECT_EQ(c->queue_depth_file_size, 1u << 20);
  w.primitive = "none";
  EXPECT_FALSE(MakeConcurrencyPlan(w, 10'000'000'000, 1u << 20).ok());
}

gate::Policy LatencyAndCommits() {
  gate::Policy p;
  p.latency.push_back(*gate::ParseLatencyFlag("10ms", gate::LatencyStat::kP99));
  p.commits.push_back(*gate::ParseCommitFlag("WAL:FULL>=500"));
  return p;
}

TEST(CheckCommandPlanTest, MeasuresWhatTheRulesReadWithinTheBudget) {
  const std::vector<std::string> paths{"/a", "/b"};
  Result<CheckCommandPlan> made =
      MakeCheckPlan(platform::Default(), paths, LatencyAndCommits(), {}, {}, false);
  ASSERT_TRUE(made.ok()) << made.status().message();
  const Plan& plan = made->plan;
  EXPECT_EQ(plan.command, "check");
  EXPECT_EQ(plan.budget_ns, 30 * kSecond);
  EXPECT_TRUE(plan.run_inspect && plan.run_probes && plan.run_sqlite);
  EXPECT_FALSE(plan.run_concurrency || plan.run_faults);
  EXPECT_FALSE(made->load.has_value());
  ASSERT_EQ(plan.probes.specs.size(), 1u);
  EXPECT_EQ(plan.probes.specs[0].primitive, probes::Primitive::kFdatasync);
  // 15 s a path: half to the probes (a fifth of it kept for re-measures), half to SQLite.
  const CheckShares shares = SplitCheckBudget(15 * kSecond, true, false, true);
  EXPECT_EQ(shares.sqlite_ns, 7'500'000'000u);
  EXPECT_EQ(plan.probes.rule.max_ns, CheckProbeRule(shares.probes_ns, 1).max_ns);
  EXPECT_EQ(plan.probes.rule.min_ops, kCheckMinOps);
  ASSERT_EQ(plan.sqlite.configs.size(), 1u);
  EXPECT_EQ(plan.sqlite.options.budget_ns, 7'500'000'000u);
}

TEST(CheckCommandPlanTest, LoadWritersAndFacts) {
  CheckRequest r;
  r.background_load = "200,100";
  r.writers.writers = {"4"};
  gate::Policy policy = LatencyAndCommits();
  policy.facts.push_back(gate::Fact::kFsyncErrorReported);
  Result<CheckCommandPlan> made =
      MakeCheckPlan(platform::Default(), {"/a"}, policy, r, {}, /*dry_run=*/true);
  ASSERT_TRUE(made.ok()) << made.status().message();
  ASSERT_TRUE(made->load.has_value());
  EXPECT_DOUBLE_EQ(made->load->reads_per_sec, 200.0);
  EXPECT_DOUBLE_EQ(made->load->writes_per_sec, 100.0);
  EXPECT_TRUE(made->plan.run_concurrency);
  EXPECT_EQ(made->plan.concurrency.writers, (std::vector<std::uint32_t>{1, 4}));
  // --quick's 3.5 s leaves the concurrency cells a quarter: too short for four writers.
  BudgetRequest quick;
  quick.quick = true;
  Result<CheckCommandPlan> short_one =
      MakeCheckPlan(platform::Default(), {"/a"}, policy, r, quick, /*dry_run=*/true);
  ASSERT_TRUE(short_one.ok());
  EXPECT_EQ(short_one->plan.budget_ns, 3'500'000'000u);
  EXPECT_EQ(short_one->plan.concurrency.dropped_writers, std::vector<std::uint32_t>{4});
  EXPECT_TRUE(made->plan.run_faults);
  EXPECT_FALSE(made->plan.faults.sqlite);  // no rule reads SQLite's part

  r.background_load = "200";
  EXPECT_FALSE(MakeCheckPlan(platform::Default(), {"/a"}, policy, r, {}, true).ok());
  EXPECT_FALSE(ParseLoad("0,0").ok());
  EXPECT_FALSE(ParseLoad("-1,5").ok());
}

}  // namespace
}  // namespace durprobe::run
