// `durprobe faults` on real filesystems made on the crash device (root, /dev/fuse and loop
// devices, else skipped with the reason): each experiment's fault reaches the filesystem, the
// table and SQLite's outcomes are there, and bad input is refused in one line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace faults_cli_test {

using nlohmann::json;

#define FAULTS_OR_SKIP(run)                                                                  \
  if ((run).exit_code == 2 && (run).err.find("the crash device needs") != std::string::npos) \
  GTEST_SKIP() << (run).err

class FaultsFsTest : public testing::TestWithParam<const char*> {};

TEST_P(FaultsFsTest, EveryExperimentMeetsItsFaultAndSqlitesCommitIsJudged) {
  testing_support::TempDir dir("/var/tmp");
  testing_support::TempDir out("/tmp");
  testing_support::CliRun r = testing_support::RunDurprobe(
      "faults " + dir.path() + " --fs " + GetParam() + " --json - --csv " + out.path() +
      "/f.csv --junit " + out.path() + "/f.xml --prometheus " + out.path() + "/f.prom");
  FAULTS_OR_SKIP(r);
  ASSERT_LE(r.exit_code, 1) << r.err;
  const json t = json::parse(r.out)["targets"][0];
  ASSERT_EQ(t["fsync_errors"].size(), 1u);
  const json& fs = t["fsync_errors"][0];
  EXPECT_EQ(fs["filesystem_of_path"], false);
  // Under data=journal, one more: the page's home block fails while the journal's copies land.
  const bool journalled = std::string(GetParam()).find("data=journal") != std::string::npos;
  const std::size_t experiments = journalled ? 8 : 7;
  ASSERT_EQ(fs["experiments"].size(), experiments) << fs;
  for (const json& e : fs["experiments"]) {
    ASSERT_EQ(e["status"], "ok") << e;
    EXPECT_TRUE(e["remount_ok"].get<bool>() || e["fault"] == "metadata") << e;
    if (e["fault"] == "metadata") {
      // The fault stays on the new file's first page and on the metadata written for it: the
      // sync after the write fails and so does the next one (a fault that fired once would let
      // it read ok); the filesystem stops writing (read-only or shut down), and the new file's
      // page is not on the disk after the remount. Measured on ext4, ext4:data=journal, xfs and
      // btrfs alike.
      EXPECT_NE(e["first_sync"], "ok") << e;
      EXPECT_NE(e["second_sync"], "ok") << e;
      EXPECT_EQ(e["reporting"], "reported_every_time") << e;
      EXPECT_TRUE(e["fs_state"] == "read_only" || e["fs_state"] == "shut_down") << e;
      EXPECT_NE(e["page_after_remount"], "new") << e;
      continue;
    }
    // Read once more after the cache let go of its clean pages, without a remount.
    EXPECT_NE(e["page_evicted"], "not_read") << e;
    if (e["fault"] == "data_checkpoint") {
      // The fault met the home block: the kernel said so, whatever the sync returned.
      bool said = false;
      for (const json& line : e["kernel"]) {
        said = said || line.get<std::string>().find("error") != std::string::npos;
      }
      EXPECT_TRUE(said) << e;
    }
    if (e["fault"] == "data_append") {
      // The append failed: the file holds its four pages, or five whose last never came.
      EXPECT_EQ(e["size"], 5 * 4096) << e;
      EXPECT_TRUE(e["size_after_remount"] == 4 * 4096 || e["size_after_remount"] == 5 * 4096) << e;
      EXPECT_NE(e["page_after_remount"], "new") << e;
    }
    // The fault was met: the write or the sync after it failed, or the page never reached the
    // disk.
    const bool met =
        e["write"] != "ok" || e["first_sync"] != "ok" || e["page_after_remount"] != "new";
    EXPECT_TRUE(met) << e;
    EXPECT_NE(e["reporting"], "unknown") << e;
    EXPECT_FALSE(e["retry"].get<std::string>().empty()) << e;
  }
  ASSERT_EQ(fs["sqlite"].size(), 2u) << fs;
  for (const json& s : fs["sqlite"]) {
    EXPECT_EQ(s["status"], "ok") << s;
    EXPECT_EQ(s["rows_before"], 3);
    EXPECT_NE(s["commit"], "") << s;
    EXPECT_NE(s["reopened"], "") << s;
  }
  // Every format carries the table: a CSV row, a JUnit testcase and a Prometheus series per
  // experiment, and SQLite's commits beside them.
  std::string csv = testing_support::Slurp(out.path() + "/f.csv");
  auto count = [](const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) {
      ++n;
    }
    return n;
  };
  EXPECT_EQ(count(csv, ",fsync_error,"), experiments) << csv;
  EXPECT_EQ(count(csv, ",sqlite_sync_failure,"), 2u) << csv;
  std::string xml = testing_support::Slurp(out.path() + "/f.xml");
  EXPECT_EQ(count(xml, "<testcase "), experiments + 2) << xml;
  EXPECT_NE(xml.find("tests=\"" + std::to_string(experiments + 2) + "\""), std::string::npos)
      << xml;
  std::string prom = testing_support::Slurp(out.path() + "/f.prom");
  EXPECT_EQ(count(prom, "\ndurprobe_fsync_error_reported{"), experiments) << prom;
  EXPECT_EQ(count(prom, "\ndurprobe_sqlite_sync_failure{"), 2u) << prom;
}

INSTANTIATE_TEST_SUITE_P(Filesystems, FaultsFsTest,
                         testing::Values("ext4", "ext4:data=journal", "xfs", "btrfs"));

// errors=panic would turn an injected write failure into a kernel panic of the machine: refused
// before anything is made, whichever way it is asked for.
TEST(FaultsCliTest, ErrorsPanicIsRefusedInOneLine) {
  for (const char* args : {"faults /var/tmp --fs ext4:errors=panic",
                           "faults /var/tmp --fs ext4 --mount-options noatime,errors=panic",
                           "crashtest /var/tmp --fs ext4 --mount-options errors=panic"}) {
    testing_support::CliRun r = testing_support::RunDurprobe(args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
    EXPECT_EQ(testing_support::CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("errors=panic"), std::string::npos) << r.err;
  }
}

TEST(FaultsCliTest, AFilesystemItCannotMakeIsRefusedInOneLine) {
  testing_support::CliRun bad = testing_support::RunDurprobe("faults /tmp --fs zfs");
  FAULTS_OR_SKIP(bad);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(testing_support::CountLines(bad.err), 1) << bad.err;
  EXPECT_NE(bad.err.find("ext4, xfs or btrfs"), std::string::npos) << bad.err;
  testing_support::CliRun tmpfs = testing_support::RunDurprobe("faults /dev/shm");
  EXPECT_EQ(tmpfs.exit_code, 2);
  EXPECT_NE(tmpfs.err.find("is on tmpfs"), std::string::npos) << tmpfs.err;
}

// check --require fsync_error_reported runs the data experiments on the path's own filesystem
// and judges the first sync after each failed write.
TEST(FaultsCliTest, CheckRequiresTheFirstSyncAfterAFailedWriteToReportIt) {
  testing_support::TempDir dir("/var/tmp");
  testing_support::CliRun r = testing_support::RunDurprobe(
      "check " + dir.path() + " --require fsync_error_reported --quick --json -");
  if (r.exit_code == 2 && r.err.find("the crash device needs") != std::string::npos) {
    GTEST_SKIP() << r.err;
  }
  if (r.exit_code == 2 && r.err.find("name one with --fs") != std::string::npos) {
    GTEST_SKIP() << "/var/tmp is not ext4, xfs or btrfs here: " << r.err;
  }
  ASSERT_LE(r.exit_code, 1) << r.err;
  const json report = json::parse(r.out);
  ASSERT_EQ(report["checks"].size(), 1u) << report["checks"];
  const json& c = report["checks"][0];
  EXPECT_EQ(c["rule"], "fsync_error_reported");
  EXPECT_NE(c["message"].get<std::string>().find("experiments"), std::string::npos) << c;
  EXPECT_EQ(report["targets"][0]["fsync_errors"][0]["sqlite"].size(), 0u)
      << "no rule reads SQLite's part";
}

}  // namespace faults_cli_test
}  // namespace durprobe
