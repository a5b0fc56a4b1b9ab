// targets[].crashtest[]: every key written, read back equal, written again the same.
#include "codec/crashtest_json.h"

#include <gtest/gtest.h>

#include <sstream>

#include "codec/json_reader.h"
#include "codec/report_json.h"

namespace durprobe::codec {
namespace crashtest_json_test {

TEST(CrashtestJsonTest, RowsRoundTripWithTheirExamples) {
  sqlite_bench::CrashtestResult r;
  r.config = {sqlite_bench::JournalMode::kWal, sqlite_bench::Synchronous::kNormal, 1};
  r.fs = "ext4";
  r.fs_options = "data=ordered";
  r.device = "honest";
  r.seed = 7;
  r.commits = 30;
  r.writes = 412;
  r.flushes = 61;
  r.states = 200;
  r.distinct = 180;
  r.lost_states = 23;
  r.lost_max = 2;
  r.ns = 40'000'000'000;
  r.agrees_with_crashsim = false;
  r.examples = {{"flush 3 + writes 17,19", "lost 2 of 9 acknowledged commits"}};
  r.paths_own_fs = true;
  r.timeline = {{0, 0, 0, false}, {4, 2, 1, false}, {9, 5, 0, true}};
  sqlite_bench::CrashtestResult failed;
  failed.outcome = probes::Outcome::kError;
  failed.reason = "mkfs.xfs exited with 1";
  model::Report report;
  model::Target t;
  t.path = "/data";
  t.crashtest = {r, failed};
  report.targets = {t};
  std::ostringstream out;
  WriteJson(report, out);
  const nlohmann::json row = nlohmann::json::parse(out.str())["targets"][0]["crashtest"][0];
  EXPECT_EQ(row["journal_mode"], "WAL");
  EXPECT_EQ(row["batch"], 1);
  EXPECT_EQ(row["lost_states"], 23);
  EXPECT_EQ(row["agrees_with_crashsim"], false);
  EXPECT_EQ(row["examples"][0]["state"], "flush 3 + writes 17,19");
  EXPECT_EQ(row["filesystem_of_path"], true);
  EXPECT_EQ(
      row["timeline"][1],
      (nlohmann::json{{"flush", 4}, {"acknowledged", 2}, {"present", 1}, {"corrupt", false}}));
  Result<model::Report> read = FromJson(out.str());
  ASSERT_TRUE(read.ok()) << read.status().message();
  ASSERT_EQ(read->targets[0].crashtest.size(), 2u);
  EXPECT_EQ(read->targets[0].crashtest[0], r);
  EXPECT_EQ(read->targets[0].crashtest[1].reason, failed.reason);
  EXPECT_EQ(ToJson(read->targets[0].crashtest), ToJson(t.crashtest)) << "byte for byte";
}

}  // namespace crashtest_json_test
}  // namespace durprobe::codec
