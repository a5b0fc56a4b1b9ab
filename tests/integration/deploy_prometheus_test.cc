// deploy/prometheus/durprobe-alerts.yml validated by `promtool check rules`, and its expressions
// name metrics the Prometheus reporter writes.
#include <gtest/gtest.h>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::RunShell;

const std::string kRules =
    std::string(DURPROBE_SOURCE_DIR) + "/deploy/prometheus/durprobe-alerts.yml";

TEST(DeployPrometheusTest, PromtoolAcceptsTheAlertRules) {
  if (RunShell("command -v promtool").exit_code != 0) {
    GTEST_SKIP() << "promtool is not installed (Debian: prometheus; scripts/deps.sh test)";
  }
  testing_support::CliRun run = RunShell("promtool check rules " + kRules);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("SUCCESS: 5 rules found"), std::string::npos) << run.out;
}

TEST(DeployPrometheusTest, RulesUseTheReportersMetricNames) {
  std::string rules = testing_support::Slurp(kRules);
  for (const char* metric : {"durprobe_check_pass", "durprobe_sync_quantile_latency_seconds",
                             "durprobe_finding", "durprobe_last_run_timestamp_seconds"}) {
    EXPECT_NE(rules.find(metric), std::string::npos) << metric;
  }
}

}  // namespace
}  // namespace durprobe
