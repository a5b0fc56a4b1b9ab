// --writers on probe, run, check and compare: bad values are one-line errors, the plan records
// the concurrency phase the budget allows, and a real probe writes the concurrency rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::ExpectDurprobeUsageError;
using testing_support::RunDurprobe;
using testing_support::TempDir;

TEST(WritersCliTest, BadValuesAreOneLineErrors) {
  TempDir dir;
  ExpectDurprobeUsageError("probe --writers 0 " + dir.path(), "'0' is not a writer count");
  ExpectDurprobeUsageError("probe --writers 1,two " + dir.path(), "'two' is not a writer count");
  ExpectDurprobeUsageError("run --writers 65 " + dir.path(), "1..64");
  ExpectDurprobeUsageError("probe --writers 2 --writers-primitive none " + dir.path(),
                           "--writers-primitive: concurrent writers need");
  ExpectDurprobeUsageError("probe --writers 2 --writers-modes forks " + dir.path(), "forks");
}

// Issue 32, item 15: `--writers=` took the next argument as its value (then "path 'threads'
// does not exist"); ' 2' was accepted and '2 ' refused, and an empty count named nothing.
TEST(WritersCliTest, AnEmptyValueIsItsOwnErrorAndSpacesAreAcceptedOnBothSides) {
  TempDir dir;
  ExpectDurprobeUsageError("probe --writers= --writers-modes threads --dry-run " + dir.path(),
                           "--writers= has no value after '='");
  // A blank item is an empty one, said by the check every list option shares (issue 57).
  ExpectDurprobeUsageError("probe --writers '1, ' --dry-run " + dir.path(),
                           "--writers '1, ' has an empty item");
  for (std::string spaced : {"' 2'", "'2 '", "' 2 ,4 '"}) {
    CliRun r = RunDurprobe("probe --writers " + spaced + " --dry-run " + dir.path());
    ASSERT_EQ(r.exit_code, 0) << spaced << ": " << r.err;
    nlohmann::json c = nlohmann::json::parse(r.out)["concurrency"];
    EXPECT_EQ(c["writers"].back(), spaced == "' 2 ,4 '" ? 4 : 2) << r.out;
  }
}

TEST(WritersCliTest, ThePlanHoldsWhatTheBudgetAllowsOnEveryCommand) {
  TempDir a, b;
  for (std::string cmd :
       {"probe --writers default", "run --writers default", "compare --writers default",
        "check --max-sync-p99 10ms --writers default"}) {
    SCOPED_TRACE(cmd);
    std::string paths = cmd.starts_with("compare") ? a.path() + " " + b.path() : a.path();
    CliRun r = RunDurprobe(cmd + " --dry-run " + paths);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json c = nlohmann::json::parse(r.out)["concurrency"];
    ASSERT_TRUE(c.is_object()) << r.out;
    EXPECT_EQ(c["writers"][0], 1);
    EXPECT_EQ(c["modes"].size(), 3u);
    EXPECT_GE(c["max_ns"].get<std::uint64_t>(), 300'000'000u);
  }
  // Without --writers, run keeps concurrency off (docs/probes.md: behind the flag).
  CliRun plain = RunDurprobe("run --dry-run " + a.path());
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("concurrency"));
  // A short budget drops the largest writer counts.
  CliRun quick = RunDurprobe("probe --quick --writers default --dry-run " + a.path());
  ASSERT_EQ(quick.exit_code, 0) << quick.err;
  nlohmann::json w = nlohmann::json::parse(quick.out)["concurrency"]["writers"];
  EXPECT_LT(w.size(), 5u) << w.dump();
  EXPECT_EQ(w[0], 1);
}

TEST(WritersCliTest, ACheckPolicysConcurrencyRuleRunsItsWriters) {
  TempDir dir;
  std::string policy = dir.path() + "/pg.toml";
  std::ofstream(policy) << "[[concurrency]]\nwriters = 2\nmode = \"threads\"\nmin_scaling = 0.01\n";
  CliRun plan = RunDurprobe("check --dry-run --policy " + policy + " " + dir.path());
  ASSERT_EQ(plan.exit_code, 0) << plan.err;
  nlohmann::json c = nlohmann::json::parse(plan.out)["concurrency"];
  EXPECT_EQ(c["writers"], nlohmann::json::parse("[1, 2]"));
  EXPECT_EQ(c["modes"], nlohmann::json::parse("[\"threads\"]"));

  CliRun run =
      RunDurprobe("check --quiet --budget 2s --policy " + policy + " --json - " + dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.err << run.out;
  nlohmann::json report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["checks"].size(), 1u);
  EXPECT_EQ(report["checks"][0]["rule"], "min_scaling_2_threads_fdatasync_4096");
  EXPECT_EQ(report["checks"][0]["status"], "pass");
  EXPECT_EQ(report["targets"][0]["concurrency"].size(), 2u);
}

TEST(WritersCliTest, AProbeWritesTheConcurrencyRowsAndTheRatio) {
  TempDir dir;
  CliRun r = RunDurprobe(
      "probe --quiet --primitives fdatasync --patterns overwrite --writers 2 "
      "--budget 3s --json - " +
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json t = nlohmann::json::parse(r.out)["targets"][0];
  ASSERT_EQ(t["concurrency"].size(), 6u);  // 1 and 2 writers, three modes
  for (const nlohmann::json& row : t["concurrency"]) {
    EXPECT_EQ(row["status"], "ok") << row.dump();
    EXPECT_GT(row["aggregate_ops_per_sec"].get<double>(), 0.0);
    if (row["writers"] == 1) {
      EXPECT_DOUBLE_EQ(row["scaling"].get<double>(), 1.0);
    }
  }
  // The queue-depth run comes last: under load the budget may have none left for it, and then
  // it is listed as unfinished (reason budget) instead of measured.
  if (!t.contains("serial_vs_concurrent")) {
    nlohmann::json dropped = {{"kind", "concurrency"},
                              {"label", "random 4 KiB O_DIRECT at queue depth 32, no sync"},
                              {"reason", "budget"}};
    ASSERT_TRUE(t.contains("unfinished")) << t.dump();
    EXPECT_NE(std::find(t["unfinished"].begin(), t["unfinished"].end(), dropped),
              t["unfinished"].end())
        << t["unfinished"].dump();
    return;
  }
  const nlohmann::json& svc = t["serial_vs_concurrent"];
  EXPECT_EQ(svc["serial"]["probe"], "fdatasync overwrite 4 KiB");
  if (svc["concurrent"]["status"] == "ok") {
    EXPECT_GT(svc["ratio"].get<double>(), 0.0);
  }
}

// Issue 32 item 16: the writer counts the budget drops are listed as not run, reason budget,
// as every other phase lists what its budget left out (budget_spent counts them).
TEST(WritersCliTest, CellsTheBudgetDropsAreListedAsUnfinished) {
  TempDir dir;
  CliRun r = RunDurprobe(
      "probe --quiet --primitives fdatasync --patterns overwrite --writers 1,8 "
      "--writers-modes threads --budget 1s --json - " +
      dir.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json t = nlohmann::json::parse(r.out)["targets"][0];
  for (const nlohmann::json& row : t["concurrency"]) EXPECT_NE(row["writers"], 8) << row.dump();
  nlohmann::json dropped = {{"kind", "concurrency"},
                            {"label", "8 writers threads fdatasync 4 KiB"},
                            {"reason", "budget"}};
  ASSERT_TRUE(t.contains("unfinished")) << t.dump();
  EXPECT_NE(std::find(t["unfinished"].begin(), t["unfinished"].end(), dropped),
            t["unfinished"].end())
      << t["unfinished"].dump();
  bool spent = false;
  for (const nlohmann::json& f : t["findings"]) {
    if (f["code"] == "budget_spent") {
      spent = true;
      EXPECT_NE(f["message"].get<std::string>().find("concurrency cell"), std::string::npos);
    }
  }
  EXPECT_TRUE(spent) << t["findings"].dump();
}

// Issue 32 item 16: every writer overwrites in place, so --writers with another pattern would
// measure overwrites under the name asked for; refused, on every command that takes both.
TEST(WritersCliTest, APatternTheWritersCannotMeasureIsRefused) {
  TempDir a, b;
  for (std::string cmd : {"probe", "run", "compare"}) {
    SCOPED_TRACE(cmd);
    std::string paths = cmd == "compare" ? a.path() + " " + b.path() : a.path();
    ExpectDurprobeUsageError(cmd + " --writers 2 --patterns append " + paths,
                             "--writers measures overwrites only");
  }
  ExpectDurprobeUsageError("probe --writers 2 --patterns overwrite,append " + a.path(),
                           "not --patterns append");
  CliRun ok = RunDurprobe(
      "probe --dry-run --primitives fdatasync --patterns overwrite --writers 2 " + a.path());
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
}

}  // namespace
}  // namespace durprobe
