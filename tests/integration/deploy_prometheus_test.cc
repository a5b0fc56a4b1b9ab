// deploy/prometheus/durprobe-alerts.yml validated by `promtool check rules`, its expressions
// name metrics the Prometheus reporter writes, and `promtool test rules` runs the alerts against
// the textfiles of a finished and of an interrupted check.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "gate/rules.h"
#include "render/prometheus/prometheus_reporter.h"
#include "tests/check_report_fixture.h"
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

// A Prometheus textfile as promtool's input series: each sample held for ten minutes.
std::string InputSeries(const model::Report& r) {
  std::ostringstream text;
  EXPECT_TRUE(render::prometheus::PrometheusReporter().Write(r, text).ok());
  std::istringstream lines(text.str());
  std::string out, line;
  while (std::getline(lines, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::size_t space = line.rfind(' ');
    std::string series = line.substr(0, space);
    double value = std::stod(line.substr(space + 1));
    std::string quoted;  // YAML single quotes: a quote is doubled
    for (char c : series) quoted += c == '\'' ? std::string("''") : std::string(1, c);
    out += fmt::format("      - series: '{}'\n        values: '{:.0f}x10'\n", quoted, value);
  }
  return out;
}

// A YAML double-quoted scalar.
std::string Quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

using PathRule = std::pair<std::string, std::string>;

// The alert DurprobeCheckFailed raises for one rule on one path, as promtool expects it.
std::string FailedAlert(const PathRule& a) {
  const auto& [path, rule] = a;
  return fmt::format(
      "          - exp_labels: {{severity: warning, path: {}, rule: {}}}\n"
      "            exp_annotations:\n"
      "              summary: {}\n"
      "              description: {}\n",
      Quoted(path), Quoted(rule), Quoted("durprobe rule " + rule + " failed on :" + path),
      Quoted("The last durprobe check on " + path + " failed or could not measure rule " + rule +
             ". Read the report's checks[] for the measured value and threshold."));
}

// Runs `promtool test rules` on the shipped rules with r's textfile as input: DurprobeCheckFailed
// must raise exactly the alerts listed, and DurprobeCheckStale must stay quiet.
void ExpectAlerts(const model::Report& r, const std::vector<PathRule>& alerts) {
  testing_support::TempDir dir;
  std::string failed;
  for (const PathRule& a : alerts) failed += FailedAlert(a);
  std::string test = "rule_files:\n  - " + kRules +
                     "\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n" +
                     InputSeries(r) +
                     "    alert_rule_test:\n      - eval_time: 5m\n        alertname: "
                     "DurprobeCheckFailed\n        exp_alerts:\n" +
                     (failed.empty() ? "          []\n" : failed) +
                     "      - eval_time: 5m\n        alertname: DurprobeCheckStale\n"
                     "        exp_alerts: []\n";
  std::ofstream(dir.path() + "/test.yml") << test;
  testing_support::CliRun run = RunShell("promtool test rules " + dir.path() + "/test.yml");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err << test;
}

TEST(DeployPrometheusTest, AlertsOnAFinishedCheckNameItsFailureAndItsError) {
  if (RunShell("command -v promtool").exit_code != 0) GTEST_SKIP() << "promtool is not installed";
  model::Report r = testing_support::CheckReportFixture();
  ExpectAlerts(r, {{r.targets[0].path, "etcd_wal_fsync_p99"},
                   {r.targets[0].path, "min_commits_DELETE_FULL"}});
}

// An interrupted check: the rule that passed before the signal and the skipped one alert too,
// instead of their series vanishing while the run's timestamp is refreshed.
TEST(DeployPrometheusTest, AnInterruptedCheckAlertsOnEveryRule) {
  if (RunShell("command -v promtool").exit_code != 0) GTEST_SKIP() << "promtool is not installed";
  model::Report r = testing_support::CheckReportFixture();
  r.context.interrupted = true;
  r.context.interrupt_signal = 15;
  std::vector<std::string> paths;
  for (const model::Target& t : r.targets) paths.push_back(t.path);
  gate::MarkInterrupted(r.checks, paths, 15);
  std::vector<PathRule> alerts;
  for (const model::CheckResult& c : r.checks) alerts.push_back({c.path, c.rule});
  ASSERT_EQ(alerts.size(), 4u);
  ExpectAlerts(r, alerts);
}

}  // namespace
}  // namespace durprobe
