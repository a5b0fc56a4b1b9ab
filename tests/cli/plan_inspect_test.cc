#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/plan.h"
#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe::cli {
namespace {

class PlanInspectTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_FALSE(dir_.empty()); }
  testing_support::TempDir tmp_;
  const std::string dir_ = tmp_.path();
};

TEST_F(PlanInspectTest, InspectOnlyWritesNothingIntoTheTarget) {
  Plan plan;
  plan.command = "inspect";
  plan.paths = {dir_};
  plan.run_inspect = true;
  Execution ex = Execute(platform::Default(), plan);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  ASSERT_EQ(ex.report.targets.size(), 1u);
  const report::Target& t = ex.report.targets[0];
  ASSERT_TRUE(t.mount.has_value());
  EXPECT_EQ(t.mount->path, dir_);
  EXPECT_FALSE(t.mount->fstype.empty());
  EXPECT_TRUE(t.probes.empty());
  Result<std::vector<std::string>> names = platform::Default().ListDirectory(dir_);
  ASSERT_TRUE(names.ok());
  EXPECT_TRUE(names->empty()) << "inspect created " << names->front();
}

TEST_F(PlanInspectTest, ProbeOnlyPlanHasNoMountBlock) {
  Plan plan;
  plan.command = "probe";
  plan.paths = {dir_};
  plan.run_probes = true;
  plan.probes.specs = {{probes::Primitive::kFdatasync, probes::Pattern::kOverwrite, 4096}};
  plan.probes.rule.warmup_ops = 0;
  plan.probes.rule.max_ops = 3;
  plan.probes.op_options.file_size = 1 << 20;
  Execution ex = Execute(platform::Default(), plan);
  ASSERT_TRUE(ex.status.ok()) << ex.status.message();
  const report::Target& t = ex.report.targets.at(0);
  // The probe ran (a plan that runs nothing would have no mount block either)...
  ASSERT_EQ(t.probes.size(), 1u);
  EXPECT_EQ(t.probes[0].outcome, probes::Outcome::kOk) << t.probes[0].reason;
  EXPECT_EQ(t.probes[0].ops, 3u);
  // ...and nothing identified the mount.
  EXPECT_FALSE(t.mount.has_value());
}

TEST_F(PlanInspectTest, RunIncludesTheMountBlock) {
  testing_support::CliRun r = testing_support::RunDurprobe(
      "run " + dir_ +
      " --budget 300ms --primitives fsync --sizes 4k --patterns overwrite --json -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["targets"][0]["mount"]["fstype"].is_string());
  EXPECT_FALSE(j["targets"][0]["probes"].empty());
}

}  // namespace
}  // namespace durprobe::cli
