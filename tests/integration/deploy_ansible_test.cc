// deploy/ansible/check.yml run for real by ansible-playbook (Debian's ansible-core) against
// localhost with connection local: the report is fetched, summarize runs on the controller, and
// a host whose check fails fails the play.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::RunShell;
using testing_support::Slurp;
using testing_support::TempDir;

CliRun RunPlaybook(const std::string& work, const std::string& target, const std::string& rule) {
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
      "\"]}' -e 'durprobe_check_args=\"--budget 1s --max-sync-p99 fdatasync:overwrite:4k=" + rule +
      "\"'");
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
  CliRun run = RunPlaybook(work.path(), target.path(), "59m");
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
  CliRun run = RunPlaybook(work.path(), target.path(), "1ns");
  EXPECT_NE(run.exit_code, 0) << run.out;
  EXPECT_NE(run.out.find("durprobe check exited 1 (a rule failed)"), std::string::npos) << run.out;
  nlohmann::json summary = nlohmann::json::parse(Slurp(work.path() + "/fetched/summary.json"));
  ASSERT_EQ(summary["rows"].size(), 1u);
  EXPECT_EQ(summary["rows"][0]["failed_rules"][0], "max_p99_fdatasync_overwrite_4096");
}

}  // namespace
}  // namespace durprobe
