// The power-cut commands' plans from their requests (run/powercut_plans.h): what each request
// turns into, what --dry-run prints of it, and what each refuses before anything listens,
// writes or connects, in the words the command prints.
#include "run/powercut_plans.h"

#include <gtest/gtest.h>

#include <string>

#include "probes/powercut_record.h"

namespace durprobe::run {
namespace powercut_plans_test {

template <typename T>
std::string Refusal(const Result<T>& plan) {
  return plan.ok() ? "(a plan)" : plan.status().message();
}

PowercutWriteRequest Write() {
  PowercutWriteRequest r;
  r.witness = "10.0.0.2:7199";
  return r;
}

TEST(PowercutPlansTest, TheWriterKeepsWholeRecordsOfItsFileAndSaysItsMode) {
  PowercutWriteRequest r = Write();
  r.record_size = "4k";
  r.file_size = "10000";  // two whole 4 KiB records, the rest dropped
  r.primitive = "fsync";
  r.mode = "append";
  r.max_outstanding = 7;
  r.duration = "2m";
  Result<PowercutWritePlan> plan = MakePowercutWritePlan("/data", r);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->path, "/data");
  EXPECT_EQ(plan->witness.Text(), "10.0.0.2:7199");
  EXPECT_EQ(plan->writer.primitive, probes::Primitive::kFsync);
  EXPECT_EQ(plan->writer.record_size, 4096u);
  EXPECT_EQ(plan->writer.file_bytes, 8192u);
  EXPECT_EQ(plan->writer.max_outstanding, 7u);
  EXPECT_EQ(plan->writer.duration_ns, 120'000'000'000u);
  EXPECT_TRUE(plan->append);
  EXPECT_FALSE(plan->sqlite);
  EXPECT_EQ(PowercutWriteMode(*plan), "append:fsync");
  const nlohmann::json dry = PowercutWriteDryRun(*plan);
  EXPECT_EQ(dry["command"], "powercut write");
  EXPECT_EQ(dry["mode"], "append:fsync");
  EXPECT_EQ(dry["file_size"], 8192);
  EXPECT_EQ(dry["duration_ns"], 120'000'000'000u);
}

TEST(PowercutPlansTest, SqliteModeCommitsARowPerRecordUnderItsSettings) {
  PowercutWriteRequest r = Write();
  r.mode = "sqlite";
  r.journal_mode = "delete";
  r.synchronous = "normal";
  Result<PowercutWritePlan> plan = MakePowercutWritePlan("/data", r);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_TRUE(plan->sqlite);
  EXPECT_EQ(plan->sqlite->journal, sqlite_bench::JournalMode::kDelete);
  EXPECT_EQ(plan->sqlite->sync, sqlite_bench::Synchronous::kNormal);
  EXPECT_FALSE(plan->append);
  EXPECT_EQ(plan->writer.duration_ns, 0u);  // no --for: until the power goes
}

TEST(PowercutPlansTest, TheWriterRefusesWhatItCannotKeep) {
  auto refused = [](auto change) {
    PowercutWriteRequest r = Write();
    change(r);
    return Refusal(MakePowercutWritePlan("/data", r));
  };
  EXPECT_EQ(refused([](PowercutWriteRequest& r) { r.witness = "10.0.0.2:0"; }),
            "--witness 10.0.0.2:0: port 0 is no witness");
  EXPECT_EQ(refused([](PowercutWriteRequest& r) { r.file_size = "1k"; }),
            "--file-size 1k: smaller than one record (4096 bytes)");
  EXPECT_EQ(refused([](PowercutWriteRequest& r) {
              r.record_size = "512";
              r.file_size = "64GiB";
            }),
            "--file-size 64GiB: at most 67108864 records of 512 bytes");
  EXPECT_NE(
      refused([](PowercutWriteRequest& r) { r.record_size = "lots"; }).find("--record-size: "),
      std::string::npos);
  EXPECT_NE(refused([](PowercutWriteRequest& r) { r.duration = "soon"; }).find("--for: "),
            std::string::npos);
  EXPECT_EQ(refused([](PowercutWriteRequest& r) { r.mode = "stream"; }),
            "--mode stream: file, append or sqlite");
  EXPECT_EQ(refused([](PowercutWriteRequest& r) { r.primitive = "fastest"; }),
            "--primitive fastest: unknown");
  // A record too small for its header, and a primitive the writer does not sync with, in the
  // probes' own words.
  EXPECT_EQ(refused([](PowercutWriteRequest& r) { r.record_size = "100"; }),
            probes::CheckRecordSize(100).message());
  EXPECT_NE(refused([](PowercutWriteRequest& r) { r.primitive = "none"; }), "(a plan)");
}

TEST(PowercutPlansTest, TheVerifierTakesItsRunAndDeadline) {
  Result<PowercutVerifyPlan> plan =
      MakePowercutVerifyPlan("/data", {.witness = "10.0.0.2:7199", .timeout = "30s"});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->deadline_ns, 30'000'000'000u);
  EXPECT_EQ(plan->run_id, "");
  const nlohmann::json dry = PowercutVerifyDryRun(*plan, "e.json", "-");
  EXPECT_EQ(dry["command"], "powercut verify");
  EXPECT_EQ(dry["timeout_ns"], 30'000'000'000u);
  EXPECT_EQ(dry["save_evidence"], "e.json");
  EXPECT_EQ(Refusal(MakePowercutVerifyPlan("/data", {.witness = "10.0.0.2:7199", .timeout = "0s"})),
            "--timeout 0s: a duration above 0 (e.g. 30s, 5m)");
  EXPECT_EQ(Refusal(MakePowercutVerifyPlan(
                "/data", {.witness = "10.0.0.2:7199", .run_id = "../x", .timeout = "5m"})),
            probes::CheckRunId("../x").message());
  EXPECT_NE(Refusal(MakePowercutVerifyPlan("/data", {.witness = "nowhere", .timeout = "5m"}))
                .find("--witness "),
            std::string::npos);
}

TEST(PowercutPlansTest, TheWitnessListensLogsAndClosesIdleConnections) {
  Result<WitnessOptions> w = MakeWitnessOptions(
      {.listen = "0.0.0.0:7199", .log = "/var/log/w.log", .duration = "1h", .idle_timeout = "5s"});
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w->listen.Text(), "0.0.0.0:7199");
  EXPECT_EQ(w->log_path, "/var/log/w.log");
  EXPECT_EQ(w->duration_ns, 3'600'000'000'000u);
  EXPECT_EQ(w->idle_timeout_ns, 5'000'000'000u);
  EXPECT_EQ(WitnessDryRun(*w)["idle_timeout_ns"], 5'000'000'000u);
  EXPECT_EQ(Refusal(MakeWitnessOptions({.listen = "0.0.0.0:7199", .idle_timeout = "0s"})),
            "--idle-timeout: invalid duration '0s': must be above zero");
  EXPECT_EQ(Refusal(MakeWitnessOptions({.listen = "0.0.0.0:7199", .duration = "later"}))
                .rfind("--for: ", 0),
            0u);
}

}  // namespace powercut_plans_test
}  // namespace durprobe::run
