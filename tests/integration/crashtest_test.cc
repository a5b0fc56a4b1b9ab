// `durprobe crashtest` on a real ext4 made on the crash device (root, /dev/fuse and loop devices,
// else skipped with the reason): WAL/FULL corrupts nothing and loses no acknowledged commit in
// any state; every row is compared with crashsim; a state that fails to mount is corrupt; a
// path on a filesystem the device cannot make is refused in one line.
#include <gtest/gtest.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"
#include "tests/fault_runner.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace crashtest_cli_test {

using nlohmann::json;

// Skips where the crash device cannot be made here.
#define CRASHTEST_OR_SKIP(run)                                                               \
  if ((run).exit_code == 2 && (run).err.find("the crash device needs") != std::string::npos) \
  GTEST_SKIP() << (run).err

TEST(CrashtestCliTest, WalFullOnExt4LosesNothingInAnyState) {
  testing_support::TempDir dir("/var/tmp");
  testing_support::CliRun r = testing_support::RunDurprobe(
      "crashtest " + dir.path() +
      " --fs ext4 --journal-modes wal --synchronous full,normal --states 40 --commits 12 --json -");
  CRASHTEST_OR_SKIP(r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json t = json::parse(r.out)["targets"][0];
  ASSERT_EQ(t["crashtest"].size(), 2u) << t["crashtest"];
  for (const json& row : t["crashtest"]) {
    EXPECT_EQ(row["status"], "ok") << row;
    EXPECT_EQ(row["filesystem"], "ext4");
    EXPECT_EQ(row["commits"], 12);
    EXPECT_GT(row["flushes"].get<int>(), 0) << row;
    EXPECT_GT(row["states"].get<int>(), 10) << row;
    EXPECT_LE(row["states"].get<int>(), 40) << row;
    EXPECT_EQ(row["corrupt"], 0) << row;
    EXPECT_FALSE(row["agrees_with_crashsim"].is_null()) << "crashsim ran the same row: " << row;
    if (row["synchronous"] == "FULL") {
      EXPECT_EQ(row["lost_states"], 0) << row;
    }
  }
  EXPECT_FALSE(t["crashsim"].empty());
}

// A state the kernel will not mount (every mount onto crash-state failed by the fault layer) is
// corrupt, counted as mount_failed, and never lost or clean: states = corrupt = mount_failed.
TEST(CrashtestCliTest, AStateThatFailsToMountIsCorruptAndCountedAsMountFailed) {
  testing_support::TempDir dir("/var/tmp");
  testing_support::CliRun r = testing_support::RunFaulted(
      "DURPROBE_FAULT_MOUNT=EINVAL 'DURPROBE_FAULT_PATH=*/crash-state'",
      "crashtest " + dir.path() +
          " --fs ext4 --journal-modes wal --synchronous full --states 6 --commits 4 --json -");
  CRASHTEST_OR_SKIP(r);
  ASSERT_LE(r.exit_code, 1) << r.err;
  const json t = json::parse(r.out)["targets"][0];
  ASSERT_EQ(t["crashtest"].size(), 1u) << t["crashtest"];
  const json& row = t["crashtest"][0];
  ASSERT_EQ(row["status"], "ok") << row;
  EXPECT_EQ(row["states"], 6) << row;
  EXPECT_EQ(row["mount_failed"], row["states"]) << row;
  EXPECT_EQ(row["corrupt"], row["states"]) << row;
  EXPECT_EQ(row["lost_states"], 0) << row;
  ASSERT_FALSE(row["examples"].empty()) << row;
  for (const json& e : row["examples"]) {
    EXPECT_EQ(e["outcome"].get<std::string>().rfind("mount failed: ", 0), 0u) << e;
  }
  for (const json& m : row["timeline"]) EXPECT_EQ(m["corrupt"], true) << m;
}

TEST(CrashtestCliTest, APathOnTmpfsIsRefusedInOneLineUnlessFsNamesOne) {
  testing_support::CliRun r =
      testing_support::RunDurprobe("crashtest /dev/shm --journal-modes wal --synchronous full");
  CRASHTEST_OR_SKIP(r);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(testing_support::CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("is on tmpfs"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--fs"), std::string::npos) << r.err;
  testing_support::CliRun options =
      testing_support::RunDurprobe("crashtest /dev/shm --mount-options data=journal");
  EXPECT_EQ(options.exit_code, 2);
  EXPECT_NE(options.err.find("--mount-options needs --fs"), std::string::npos) << options.err;
}

json CrashtestRows(const testing_support::CliRun& r) {
  return json::parse(r.out)["targets"][0]["crashtest"];
}

// One workload's log, on one CPU with flushes in a row counted once, is the same from run to run
// on ext4, and the same log gives the same table for a seed; a state a report names rebuilds, on
// the log it was named on (--log), to what the report said of it.
TEST(CrashtestCliTest, TheSameSeedGivesTheSameTableAndANamedStateRebuildsToTheSameOutcome) {
  testing_support::TempDir dir("/var/tmp");
  const std::string args = "crashtest " + dir.path() +
                           " --fs ext4 --journal-modes delete --synchronous full --commits 8 ";
  testing_support::CliRun first = testing_support::RunDurprobe(args + "--states 30 --json -");
  CRASHTEST_OR_SKIP(first);
  ASSERT_EQ(first.exit_code, 0) << first.err;
  testing_support::CliRun second = testing_support::RunDurprobe(args + "--states 30 --json -");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  json a = CrashtestRows(first)[0], b = CrashtestRows(second)[0];
  EXPECT_EQ(a["workload_runs"], 1);
  ASSERT_EQ(a["log"].get<std::string>().size(), 16u) << a;
  if (a["log"] == b["log"]) {
    for (const char* key : {"writes", "flushes", "states", "distinct", "corrupt", "lost_states",
                            "lost_max", "examples", "timeline"}) {
      EXPECT_EQ(a[key], b[key]) << key;
    }
  } else {  // the kernel's timing logged the workload otherwise: said, not hidden
    std::cout << "[ note ] two runs logged " << a["log"] << " and " << b["log"] << "\n";
  }
  ASSERT_FALSE(a["examples"].empty())
      << "DELETE/FULL rolls its last commit back in some state: " << a;
  const json& example = a["examples"][0];
  const std::string rebuild = args + "--state '" + example["state"].get<std::string>() + "' --log ";
  testing_support::CliRun again =
      testing_support::RunDurprobe(rebuild + a["log"].get<std::string>() + " --json -");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  json rebuilt = CrashtestRows(again)[0];
  EXPECT_EQ(rebuilt["log"], a["log"]);
  EXPECT_GE(rebuilt["workload_runs"].get<int>(), 1);
  EXPECT_EQ(rebuilt["states"], 1);
  ASSERT_EQ(rebuilt["examples"].size(), 1u) << rebuilt;
  EXPECT_EQ(rebuilt["examples"][0], example);

  // A log no run of this workload gives: the state is not rebuilt on another, and that is said.
  testing_support::CliRun other =
      testing_support::RunDurprobe(rebuild + "0123456789abcdef --json -");
  EXPECT_EQ(other.exit_code, 1) << other.err;
  json refused = CrashtestRows(other)[0];
  EXPECT_EQ(refused["status"], "error");
  EXPECT_EQ(refused["states"], 0);
  EXPECT_NE(refused["reason"].get<std::string>().find("never the named log 0123456789abcdef"),
            std::string::npos)
      << refused;
  EXPECT_NE(other.err.find("never the named log"), std::string::npos) << other.err;

  testing_support::CliRun words = testing_support::RunDurprobe(args + "--state 'flush x'");
  EXPECT_EQ(words.exit_code, 2);
  EXPECT_EQ(testing_support::CountLines(words.err), 1) << words.err;
  EXPECT_NE(words.err.find("cannot read"), std::string::npos) << words.err;
  testing_support::CliRun two = testing_support::RunDurprobe(
      "crashtest " + dir.path() + " --fs ext4 --journal-modes wal,delete --state 'flush 1'");
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("one configuration"), std::string::npos) << two.err;
  for (const char* bad : {" --log 0123456789abcdef", " --state 'flush 1' --log 12ab"}) {
    testing_support::CliRun log = testing_support::RunDurprobe(args + bad);
    EXPECT_EQ(log.exit_code, 2) << bad;
    EXPECT_EQ(testing_support::CountLines(log.err), 1) << log.err;
    EXPECT_NE(log.err.find("--log"), std::string::npos) << log.err;
  }
}

// A device that returns from a flush before keeping the data: the FULL settings lose commits or
// are corrupt, and crashsim's model (which keeps every sync) is not compared.
TEST(CrashtestCliTest, ADeviceThatIgnoresFlushesCostsTheFullSettingsTheirCommits) {
  testing_support::TempDir dir("/var/tmp");
  testing_support::CliRun r = testing_support::RunDurprobe(
      "crashtest " + dir.path() +
      " --fs ext4 --device ignores-flush --journal-modes delete,wal --synchronous full "
      "--states 60 --commits 10 --json -");
  CRASHTEST_OR_SKIP(r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::uint64_t bad = 0;
  for (const json& row : CrashtestRows(r)) {
    EXPECT_EQ(row["device"], "ignores-flush");
    EXPECT_TRUE(row["agrees_with_crashsim"].is_null()) << row;
    bad += row["corrupt"].get<std::uint64_t>() + row["lost_states"].get<std::uint64_t>();
  }
  EXPECT_GT(bad, 0u) << CrashtestRows(r);
}

// ext4 without barriers sends no flush at all, so an honest device's cache drops what the
// syncs were acknowledged for.
TEST(CrashtestCliTest, Ext4WithoutBarriersLosesWhatItSyncedOnAnHonestDevice) {
  testing_support::TempDir dir("/var/tmp");
  testing_support::CliRun r = testing_support::RunDurprobe(
      "crashtest " + dir.path() +
      " --fs ext4 --mount-options nobarrier --journal-modes wal --synchronous full --states 30 "
      "--commits 8 --json -");
  CRASHTEST_OR_SKIP(r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json row = CrashtestRows(r)[0];
  EXPECT_EQ(row["flushes"], 0) << row;
  EXPECT_GT(row["lost_states"].get<int>() + row["corrupt"].get<int>(), 0) << row;
}

// Each filesystem's own recovery keeps what SQLite documents: nothing corrupt, WAL/FULL and
// DELETE/EXTRA lose nothing, DELETE/FULL at most its last commit.
class CrashtestFsTest : public testing::TestWithParam<std::pair<const char*, const char*>> {};

TEST_P(CrashtestFsTest, KeepsWhatSqliteDocuments) {
  testing_support::TempDir dir("/var/tmp");
  const auto [fs, options] = GetParam();
  testing_support::CliRun r = testing_support::RunDurprobe(
      "crashtest " + dir.path() + " --fs " + fs +
      (std::string(options).empty() ? "" : std::string(" --mount-options ") + options) +
      " --journal-modes wal,delete --synchronous full,extra --states 30 --commits 8 --json -");
  CRASHTEST_OR_SKIP(r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json rows = CrashtestRows(r);
  ASSERT_EQ(rows.size(), 4u);
  for (const json& row : rows) {
    EXPECT_EQ(row["status"], "ok") << row;
    EXPECT_EQ(row["filesystem"], fs);
    EXPECT_GT(row["flushes"].get<int>(), 0) << row;
    EXPECT_EQ(row["corrupt"], 0) << row;
    if (row["journal_mode"] == "DELETE" && row["synchronous"] == "FULL") {
      EXPECT_LE(row["lost_max"].get<int>(), 1) << row;
    } else {
      EXPECT_EQ(row["lost_states"], 0) << row;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Filesystems, CrashtestFsTest,
                         testing::Values(std::make_pair("ext4", "data=journal"),
                                         std::make_pair("xfs", ""), std::make_pair("btrfs", "")),
                         [](const auto& fs) {
                           return std::string(fs.param.first) +
                                  (std::string(fs.param.second).empty() ? "" : "_data_journal");
                         });

// Without --fs the states are the path's own filesystem's: its verdict gains the crash_test
// layer, in JSON and in the console's layers line.
TEST(CrashtestCliTest, ThePathsOwnFilesystemsStatesAreCitedInItsVerdict) {
  testing_support::TempDir dir("/var/tmp");
  testing_support::CliRun r =
      testing_support::RunDurprobe("crashtest " + dir.path() +
                                   " --journal-modes wal --synchronous full --states 20 "
                                   "--commits 6 --json -");
  CRASHTEST_OR_SKIP(r);
  if (r.exit_code == 2 && r.err.find("name one with --fs") != std::string::npos) {
    GTEST_SKIP() << "/var/tmp is not ext4, xfs or btrfs here: " << r.err;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json t = json::parse(r.out)["targets"][0];
  EXPECT_EQ(t["crashtest"][0]["filesystem_of_path"], true);
  const json& layer = t["durability"]["layers"].back();
  EXPECT_EQ(layer["kind"], "crash_test") << t["durability"];
  EXPECT_EQ(layer["effect"], "passes") << layer;
  EXPECT_NE(layer["reason"].get<std::string>().find("crash-tested: 20 states"), std::string::npos)
      << layer;
}

}  // namespace crashtest_cli_test
}  // namespace durprobe
