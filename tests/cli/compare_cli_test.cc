// compare end to end on real directories: a column per path, ratios, verdicts, the JSON document.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::RunDurprobe;
using testing_support::TempDir;

TEST(CompareCliTest, NeedsTwoPaths) {
  TempDir a;
  testing_support::CliRun run = RunDurprobe("compare " + a.path());
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(testing_support::CountLines(run.err), 1) << run.err;
  EXPECT_NE(run.err.find("at least two paths"), std::string::npos) << run.err;
}

TEST(CompareCliTest, MissingSecondPath) {
  TempDir a;
  testing_support::CliRun run = RunDurprobe("compare " + a.path() + " /nonexistent/durprobe-b");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("does not exist"), std::string::npos) << run.err;
}

// sqlite_args: "--no-sqlite", or a small matrix to run on both paths. durable_b: whether b
// keeps its syncs (two directories of one filesystem) or not (a tmpfs): a durable b may show
// any penalty or none (the disk here changes state), never not_durable; a tmpfs only that.
void ExpectComparison(const std::string& a, const std::string& b, const std::string& sqlite_args,
                      std::size_t sqlite_configs, bool durable_b) {
  testing_support::CliRun run =
      RunDurprobe("compare --budget 3s --rounds 2 --primitives none,fdatasync,dir_fsync " +
                  sqlite_args + " --json - " + a + " " + b);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json j = nlohmann::json::parse(run.out);
  EXPECT_EQ(j["schema"], "durprobe.compare/1");
  EXPECT_EQ(j["paths"], nlohmann::json({a, b}));
  ASSERT_EQ(j["targets"].size(), 2u);
  for (const auto& t : j["targets"]) {
    EXPECT_EQ(t["probes"].size(), 6u);
    EXPECT_EQ(t["op_costs"].size(), 6u);
    for (const auto& p : t["probes"]) EXPECT_GT(p["ops"].get<int>(), 0) << p.dump();
    EXPECT_EQ(t.value("sqlite", nlohmann::json::array()).size(), sqlite_configs);
  }
  ASSERT_EQ(j["verdicts"].size(), 1u);
  EXPECT_EQ(j["verdicts"][0]["path"], b);
  std::string dominant = j["verdicts"][0]["dominant"];
  if (durable_b) {
    // A quick run on a disk that changes state may rightly not decide: "undecided".
    EXPECT_TRUE(dominant == "none" || dominant == "per_sync" || dominant == "per_op" ||
                dominant == "metadata" || dominant == "undecided")
        << dominant;
  } else {
    EXPECT_EQ(dominant, "not_durable");
  }
  EXPECT_GT(j["verdicts"][0]["ratios"]["per_op"].get<double>(), 0.0);
}

TEST(CompareCliTest, TwoDirectories) {
  TempDir a, b;
  ExpectComparison(a.path(), b.path(),
                   "--journal-modes wal --synchronous full,off --commits 20 --repetitions 1", 2,
                   /*durable_b=*/true);
}

TEST(CompareCliTest, DirectoryAgainstTmpfsTable) {
  if (!testing_support::IsRoot()) GTEST_SKIP() << "mounting a tmpfs needs root";
  TempDir a, b;
  if (std::system(("mount -t tmpfs -o size=64m durprobe-test " + b.path()).c_str()) != 0) {
    GTEST_SKIP() << "could not mount a tmpfs";
  }
  ExpectComparison(a.path(), b.path(), "--no-sqlite", 0, /*durable_b=*/false);
  testing_support::CliRun run = RunDurprobe(
      "compare --budget 2s --rounds 1 --primitives none,fdatasync --journal-modes delete "
      "--synchronous full --commits 10 --repetitions 1 " +
      a.path() + " " + b.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("[2] p50  [2]/[1]"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("fdatasync overwrite 4 KiB"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("verdict for " + b.path()), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("sync_noop_suspected"), std::string::npos) << run.out;
  // A tmpfs keeps nothing: its own verdict, never "no significant penalty".
  EXPECT_NE(run.out.find("verdict for " + b.path() + ": faster because it keeps nothing"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("sqlite DELETE/FULL x1 commit"), std::string::npos) << run.out;
  std::system(("umount " + b.path()).c_str());
}

}  // namespace
}  // namespace durprobe
