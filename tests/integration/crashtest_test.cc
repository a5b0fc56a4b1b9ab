// `durprobe crashtest` on a real ext4 made on the crash device (root, /dev/fuse and loop devices,
// else skipped with the reason): WAL/FULL corrupts nothing and loses no acknowledged commit in
// any state; every row is compared with crashsim; a path on a filesystem the device cannot make
// is refused in one line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"
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
    if (row["synchronous"] == "FULL") EXPECT_EQ(row["lost_states"], 0) << row;
  }
  EXPECT_FALSE(t["crashsim"].empty());
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

}  // namespace crashtest_cli_test
}  // namespace durprobe
