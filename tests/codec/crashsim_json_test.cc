// targets[].crashsim[] in the JSON report: the contract keys and their values.
#include "codec/crashsim_json.h"

#include <gtest/gtest.h>

#include "codec/report_json.h"

namespace durprobe::codec {
namespace {

TEST(CrashsimJsonTest, EntryCarriesTheContractKeys) {
  sqlite_bench::CrashsimResult r;
  r.config = {sqlite_bench::JournalMode::kWal, sqlite_bench::Synchronous::kNormal, 10};
  r.trials = 100;
  r.crash_states = 90;
  r.crash_points = 70;
  r.commits = 12;
  r.corrupt = 0;
  r.trials_with_loss = 40;
  r.lost_commits_max = 6;
  r.lost_commits_mean = 1.5;
  r.seed = 3;
  r.device = "atomic_sectors";
  nlohmann::json j = ToJson(r);
  EXPECT_EQ(j["journal_mode"], "WAL");
  EXPECT_EQ(j["synchronous"], "NORMAL");
  EXPECT_EQ(j["rows_per_commit"], 10);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["trials"], 100);
  EXPECT_EQ(j["crash_states"], 90);
  EXPECT_EQ(j["crash_points"], 70);
  EXPECT_EQ(j["commits_per_trial"], 12);
  EXPECT_EQ(j["corrupt"], 0);
  EXPECT_EQ(j["trials_with_loss"], 40);
  EXPECT_EQ(j["lost_commits"]["max"], 6);
  EXPECT_DOUBLE_EQ(j["lost_commits"]["mean"].get<double>(), 1.5);
  EXPECT_EQ(j["seed"], 3);
  EXPECT_EQ(j["device"], "atomic_sectors");
  EXPECT_FALSE(j.contains("corrupt_example"));
  EXPECT_FALSE(j.contains("reason"));
}

TEST(CrashsimJsonTest, TargetsHoldCrashsimOnlyWhenItRan) {
  model::Report report;
  report.targets.resize(2);
  report.targets[1].crashsim.resize(2);
  report.targets[1].crashsim[1].corrupt_example = "file is not a database";
  nlohmann::json j = ToJson(report);
  EXPECT_FALSE(j["targets"][0].contains("crashsim"));
  ASSERT_EQ(j["targets"][1]["crashsim"].size(), 2u);
  EXPECT_EQ(j["targets"][1]["crashsim"][1]["corrupt_example"], "file is not a database");
}

}  // namespace
}  // namespace durprobe::codec
