// deploy/ansible/check.yml run for real by ansible-playbook (Debian's ansible-core) against
// localhost with connection local: the report is fetched, summarize runs on the controller, and
// a host whose check fails fails the play.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"
#include "tests/integration/podman_support.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::RunShell;
using testing_support::Slurp;
using testing_support::TempDir;

// A rule every host passes, decided from a second of syncs even in a disk's slow state (a p99
// under its limit needs 367 operations: "cannot tell" on 3 ms syncs), and one none passes.
constexpr const char* kPasses = "--max-sync-p50 fdatasync:overwrite:4k=59m";
constexpr const char* kFails = "--max-sync-p99 fdatasync:overwrite:4k=1ns";

// extra: more ansible-playbook arguments (-e ...), appended as shell words.
CliRun RunPlaybook(const std::string& work, const std::string& target, const std::string& rule,
                   const std::string& extra = "") {
  std::string inventory = work + "/inventory";
  RunShell(
      "echo 'localhost ansible_connection=local ansible_python_interpreter=/usr/bin/python3' > " +
      inventory);
  return RunShell(
      "ANSIBLE_NOCOLOR=1 ANSIBLE_LOCAL_TEMP=" + work + "/tmp ANSIBLE_HOME=" + work +
      "/home ansible-playbook -i " + inventory + " " + DURPROBE_SOURCE_DIR +
      "/deploy/ansible/check.yml -e durprobe_binary=" + DURPROBE_BINARY +
      " -e durprobe_install_path=" + work + "/durprobe -e durprobe_remote_dir=" + work +
      "/remote -e durprobe_fetch_dir=" + work + "/fetched -e '{\"durprobe_paths\": [\"" + target +
      "\"]}' -e 'durprobe_check_args=\"--budget 1s " + rule +
      "\"' " + extra);
}

class DeployAnsibleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (RunShell("command -v ansible-playbook").exit_code != 0) {
      GTEST_SKIP()
          << "ansible-playbook is not installed (Debian: ansible-core; scripts/deps.sh test)";
    }
  }
};

TEST_F(DeployAnsibleTest, PassingHostIsFetchedAndSummarized) {
  TempDir work, target;
  CliRun run = RunPlaybook(work.path(), target.path(), kPasses);
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  nlohmann::json report =
      nlohmann::json::parse(Slurp(work.path() + "/fetched/localhost.report.json"));
  EXPECT_EQ(report["schema"], "durprobe.report/1");
  EXPECT_EQ(report["checks"][0]["path"], target.path());
  EXPECT_EQ(report["checks"][0]["status"], "pass");
  nlohmann::json summary = nlohmann::json::parse(Slurp(work.path() + "/fetched/summary.json"));
  ASSERT_EQ(summary["rows"].size(), 1u);
  EXPECT_EQ(summary["rows"][0]["path"], target.path());
  EXPECT_TRUE(summary["rows"][0]["failed_rules"].empty());
  EXPECT_NE(Slurp(work.path() + "/fetched/localhost.junit.xml").find("<testsuites"),
            std::string::npos);
}

TEST_F(DeployAnsibleTest, FailingHostFailsThePlayAfterItsReportIsFetched) {
  TempDir work, target;
  CliRun run = RunPlaybook(work.path(), target.path(), kFails);
  EXPECT_NE(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("durprobe check exited 1 (a rule failed)"), std::string::npos) << run.out;
  nlohmann::json summary = nlohmann::json::parse(Slurp(work.path() + "/fetched/summary.json"));
  ASSERT_EQ(summary["rows"].size(), 1u);
  EXPECT_EQ(summary["rows"][0]["failed_rules"][0], "max_p99_fdatasync_overwrite_4096");
}

// A host that could not measure (every sync fails with EIO, from the LD_PRELOAD fault layer):
// the report its run left is fetched in place of the previous run's passing one, and the host is
// marked could-not-measure in its status file, the summary and the play's failure.
TEST_F(DeployAnsibleTest, UnmeasuredHostFetchesItsPartialReportAndIsMarked) {
  TempDir work, target;
  ASSERT_EQ(RunPlaybook(work.path(), target.path(), kPasses).exit_code, 0);
  std::string faults = std::string("-e '{\"durprobe_environment\": {\"LD_PRELOAD\": \"") +
                       DURPROBE_FAULTLIB +
                       "\", \"DURPROBE_FAULT_SYNC\": \"EIO\", \"DURPROBE_FAULT_PATH\": "
                       "\"*/.durprobe-scratch-*/*\"}}'";
  CliRun run = RunPlaybook(work.path(), target.path(), kPasses, faults);
  EXPECT_NE(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("durprobe check exited 2 (could not measure)"), std::string::npos)
      << run.out;
  std::string fetched = work.path() + "/fetched/";
  nlohmann::json report = nlohmann::json::parse(Slurp(fetched + "localhost.report.json"));
  ASSERT_EQ(report["checks"].size(), 1u);
  EXPECT_EQ(report["checks"][0]["status"], "error") << report["checks"].dump();
  nlohmann::json status = nlohmann::json::parse(Slurp(fetched + "localhost.status.json"));
  EXPECT_EQ(status["status"], "could_not_measure");
  EXPECT_EQ(status["exit_code"], 2);
  EXPECT_EQ(status["report"], true);
  EXPECT_NE(status["error"].get<std::string>().find("Input/output error"), std::string::npos)
      << status.dump();
  std::string summary = Slurp(fetched + "summary.txt");
  EXPECT_NE(summary.find("could not measure: localhost (exit 2; its partial report is above)"),
            std::string::npos)
      << summary;
}

// A host whose run exits 2 before writing any report (the path does not exist): the previous
// run's passing report is gone from the controller, so the summary cannot show it.
TEST_F(DeployAnsibleTest, UnmeasuredHostWithoutAReportLeavesNoStaleOne) {
  TempDir work, target;
  ASSERT_EQ(RunPlaybook(work.path(), target.path(), kPasses).exit_code, 0);
  std::string fetched = work.path() + "/fetched/";
  ASSERT_FALSE(Slurp(fetched + "localhost.report.json").empty());
  CliRun run = RunPlaybook(work.path(), target.path() + "/missing", kPasses);
  EXPECT_NE(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("durprobe check exited 2 (could not measure)"), std::string::npos)
      << run.out;
  EXPECT_NE(RunShell("test -e " + fetched + "localhost.report.json").exit_code, 0);
  nlohmann::json status = nlohmann::json::parse(Slurp(fetched + "localhost.status.json"));
  EXPECT_EQ(status["status"], "could_not_measure");
  EXPECT_EQ(status["report"], false);
  std::string summary = Slurp(fetched + "summary.txt");
  EXPECT_NE(summary.find("no reports were fetched"), std::string::npos) << summary;
  EXPECT_NE(summary.find("could not measure: localhost (exit 2; it left no report)"),
            std::string::npos)
      << summary;
}

// The role runs the image deploy/image/build.sh made instead of a binary: the saved archive is
// copied and loaded on the host, the path bound in at its own name, and the report fetched names
// the host's path and a podman container.
TEST_F(DeployAnsibleTest, ImageModeLoadsTheSavedImageAndChecksThroughIt) {
  DURPROBE_NEED_IMAGE();
  const testing_support::PodmanImage& image = testing_support::TestImage();
  TempDir work, target;
  std::string archive = work.path() + "/durprobe.tar";
  CliRun saved = RunShell(std::string(DURPROBE_SOURCE_DIR) + "/deploy/image/build.sh --durprobe " +
                          DURPROBE_BINARY + " --name localhost/durprobe-test --save " + archive);
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  CliRun run = RunPlaybook(
      work.path(), target.path(), kPasses,
      "-e durprobe_binary= -e durprobe_controller_binary=" + std::string(DURPROBE_BINARY) +
          " -e durprobe_image=" + image.tag + " -e durprobe_image_archive=" + archive +
          " -e 'durprobe_podman=\"" + testing_support::PodmanCommand() +
          "\"' -e 'durprobe_podman_run_args=\"" + testing_support::kPodmanLimits + "\"'");
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("Load the durprobe image on the host"), std::string::npos);
  nlohmann::json report =
      nlohmann::json::parse(Slurp(work.path() + "/fetched/localhost.report.json"));
  EXPECT_EQ(report["checks"][0]["path"], target.path());
  EXPECT_EQ(report["checks"][0]["status"], "pass");
  EXPECT_EQ(report["targets"][0]["mount"]["container"]["runtime"], "podman");
  EXPECT_EQ(report["targets"][0]["mount"]["container"]["path_role"], "bind_from_host");
}

}  // namespace
}  // namespace durprobe
