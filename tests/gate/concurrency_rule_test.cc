// Check's concurrency rules: the `[[concurrency]]` policy key, what the check must measure for
// them, and their evaluation against the concurrency rows.
#include "gate/concurrency_rule.h"

#include <gtest/gtest.h>

#include <cmath>

#include "gate/policy.h"

namespace durprobe::gate {
namespace {

Result<Policy> Toml(const std::string& text) { return ParsePolicy(text, "toml", "p.toml"); }

TEST(ConcurrencyRuleTest, ATableGivesOneRulePerFloorWithDefaults) {
  Result<Policy> p =
      Toml("[[concurrency]]\nwriters = 8\nmode = \"processes\"\nmin_scaling = 2\nmin_ops = 900\n");
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->concurrency.size(), 2u);
  const ConcurrencyRule& scaling = p->concurrency[0];
  EXPECT_EQ(scaling.measure, ConcurrencyRule::Measure::kScaling);
  EXPECT_DOUBLE_EQ(scaling.min, 2.0);
  EXPECT_EQ(scaling.spec.writers, 8u);
  EXPECT_EQ(scaling.spec.mode, probes::WriterMode::kProcesses);
  EXPECT_EQ(scaling.spec.primitive, probes::Primitive::kFdatasync);
  EXPECT_EQ(scaling.name, "min_scaling_8_processes_fdatasync_4096");
  EXPECT_EQ(p->concurrency[1].measure, ConcurrencyRule::Measure::kAggregate);
  EXPECT_EQ(p->concurrency[1].name, "min_ops_8_processes_fdatasync_4096");
  EXPECT_FALSE(p->empty());
}

TEST(ConcurrencyRuleTest, BadTablesAreOneLineErrorsNamingTheKey) {
  auto error = [](const std::string& text) {
    Result<Policy> p = Toml(text);
    return p.ok() ? std::string("parsed") : p.status().message();
  };
  EXPECT_NE(error("[[concurrency]]\nwriters = 8\n").find("needs min_scaling"), std::string::npos);
  EXPECT_NE(error("[[concurrency]]\nwriters = 0\nmin_ops = 1\n").find("concurrency[0].writers"),
            std::string::npos);
  EXPECT_NE(error("[[concurrency]]\nmode = \"forks\"\nmin_ops = 1\n").find("writer mode"),
            std::string::npos);
  EXPECT_NE(error("[[concurrency]]\nprimitive = \"none\"\nmin_ops = 1\n").find("not none"),
            std::string::npos);
  EXPECT_NE(error("[[concurrency]]\npattern = \"append\"\nmin_ops = 1\n").find("overwrite"),
            std::string::npos);
  EXPECT_NE(error("[[concurrency]]\nmin_ops = 1\ncolour = 2\n").find("unknown key"),
            std::string::npos);
}

TEST(ConcurrencyRuleTest, NeedsAreTheWriterCountsWithOneAndTheModes) {
  Result<Policy> p = Toml(
      "[[concurrency]]\nwriters = 8\nmin_scaling = 2\n"
      "[[concurrency]]\nwriters = 4\nmode = \"shared_file\"\nmin_ops = 10\n");
  ASSERT_TRUE(p.ok()) << p.status().message();
  Result<ConcurrencyNeeds> needs = NeedsOf(p->concurrency);
  ASSERT_TRUE(needs.ok()) << needs.status().message();
  EXPECT_EQ(needs->writers, (std::vector<std::uint32_t>{1, 4, 8}));
  EXPECT_EQ(needs->modes, (std::vector<probes::WriterMode>{probes::WriterMode::kProcesses,
                                                           probes::WriterMode::kSharedFile}));
  Result<Policy> mixed =
      Toml("[[concurrency]]\nmin_ops = 1\n[[concurrency]]\nprimitive = \"fsync\"\nmin_ops = 1\n");
  ASSERT_TRUE(mixed.ok()) << mixed.status().message();
  EXPECT_FALSE(NeedsOf(mixed->concurrency).ok());
  EXPECT_TRUE(NeedsOf({})->writers.empty());
}

TEST(ConcurrencyRuleTest, EvaluationPassesFailsAndSaysWhatIsMissing) {
  ConcurrencyRule rule;
  rule.name = "pg";
  rule.min = 2.0;
  model::Target t;
  t.path = "/db";
  model::CheckResult missing = EvaluateConcurrency(rule, t);
  EXPECT_EQ(missing.outcome, model::CheckOutcome::kError);
  EXPECT_NE(missing.message.find("not measured"), std::string::npos) << missing.message;

  probes::ConcurrencyResult row;
  row.spec = rule.spec;
  row.ops = 4000;
  row.aggregate_ops_per_sec = 2600;
  row.scaling = 2.6;
  row.latency.p50 = 3'000'000;
  t.concurrency.push_back(row);
  model::CheckResult pass = EvaluateConcurrency(rule, t);
  EXPECT_EQ(pass.outcome, model::CheckOutcome::kPass) << pass.message;
  EXPECT_DOUBLE_EQ(*pass.measured, 2.6);
  EXPECT_EQ(pass.unit, model::CheckUnit::kTimes);
  EXPECT_EQ(pass.comparison, model::CheckComparison::kAtLeast);

  rule.measure = ConcurrencyRule::Measure::kAggregate;
  rule.min = 3000;
  model::CheckResult fail = EvaluateConcurrency(rule, t);
  EXPECT_EQ(fail.outcome, model::CheckOutcome::kFail);
  EXPECT_EQ(fail.unit, model::CheckUnit::kOpsPerSec);

  t.concurrency[0].outcome = probes::Outcome::kUnsupported;
  t.concurrency[0].reason = "io_uring refused";
  EXPECT_EQ(EvaluateConcurrency(rule, t).outcome, model::CheckOutcome::kSkipped);
}

// A floor is ">=": met exactly, the rule passes, for scaling and for the aggregate rate alike;
// the smallest step under it fails.
TEST(ConcurrencyRuleTest, AFloorMetExactlyPasses) {
  model::Target t;
  t.path = "/db";
  probes::ConcurrencyResult row;
  row.ops = 4000;
  row.aggregate_ops_per_sec = 2600;
  row.scaling = 2.5;
  t.concurrency.push_back(row);
  ConcurrencyRule rule;
  rule.name = "exact";
  rule.spec = row.spec;
  rule.min = 2.5;
  EXPECT_EQ(EvaluateConcurrency(rule, t).outcome, model::CheckOutcome::kPass);
  rule.min = std::nextafter(2.5, 3.0);
  EXPECT_EQ(EvaluateConcurrency(rule, t).outcome, model::CheckOutcome::kFail);
  rule.measure = ConcurrencyRule::Measure::kAggregate;
  rule.min = 2600;
  EXPECT_EQ(EvaluateConcurrency(rule, t).outcome, model::CheckOutcome::kPass);
  rule.min = std::nextafter(2600.0, 3000.0);
  EXPECT_EQ(EvaluateConcurrency(rule, t).outcome, model::CheckOutcome::kFail);
}

TEST(ConcurrencyRuleTest, EvaluatePolicyRunsTheRulesPerTarget) {
  Policy p;
  p.concurrency.push_back(ConcurrencyRule{.name = "a", .min = 1.0});
  model::Report r;
  r.targets.resize(2);
  std::vector<model::CheckResult> out = EvaluatePolicy(p, r);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].rule, "a");
}

}  // namespace
}  // namespace durprobe::gate
