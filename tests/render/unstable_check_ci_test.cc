// An unstable rule (the device moved by enough to flip it) in every check output: JUnit counts it
// as an error of type "unstable", Prometheus reads it as not passed with a gauge of its own, the
// console tags it UNSTABLE and counts it apart; a pass with a warning is named in the headline.
#include <gtest/gtest.h>

#include <sstream>

#include "render/console/check_console.h"
#include "render/console/console_reporter.h"
#include "render/console/path_summary_console.h"
#include "render/junit/junit_reporter.h"
#include "render/prometheus/prometheus_reporter.h"
#include "text/line_width.h"

namespace durprobe::render {
namespace {

model::Report ReportWithAnUnstableRule() {
  model::Report report;
  report.context.durprobe_version = "0.1.0";
  report.context.host = "h";
  report.context.started_at = "2026-12-01T14:00:00Z";
  model::Target t;
  t.path = "/data";
  report.targets = {t};
  model::CheckResult c;
  c.rule = "etcd_wal_fsync_p99";
  c.path = "/data";
  c.outcome = model::CheckOutcome::kUnstable;
  c.measured = 0.006;
  c.threshold = 0.01;
  c.comparison = model::CheckComparison::kBelow;
  c.unit = model::CheckUnit::kSeconds;
  c.drift_low = 0.006;
  c.drift_high = 0.012;
  c.message = "unstable: the device moved during the run";
  report.checks = {c};
  return report;
}

TEST(UnstableCheckCiTest, JunitCallsItAnErrorOfTypeUnstable) {
  std::ostringstream out;
  ASSERT_TRUE(junit::JunitReporter().Write(ReportWithAnUnstableRule(), out).ok());
  std::string xml = out.str();
  EXPECT_NE(xml.find("tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\""), std::string::npos)
      << xml;
  EXPECT_NE(xml.find("<error type=\"unstable\" message=\"measured 6.00 ms, threshold &lt; "
                     "10.0 ms\">unstable: the device moved during the run</error>"),
            std::string::npos)
      << xml;
}

TEST(UnstableCheckCiTest, PrometheusReadsItAsNotPassedAndUnstable) {
  std::ostringstream out;
  ASSERT_TRUE(prometheus::PrometheusReporter().Write(ReportWithAnUnstableRule(), out).ok());
  std::string text = out.str();
  EXPECT_NE(text.find("durprobe_check_pass{path=\"/data\",rule=\"etcd_wal_fsync_p99\"} 0"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# TYPE durprobe_check_unstable gauge"), std::string::npos) << text;
  EXPECT_NE(text.find("durprobe_check_unstable{path=\"/data\",rule=\"etcd_wal_fsync_p99\"} 1"),
            std::string::npos)
      << text;
}

TEST(UnstableCheckCiTest, TheConsoleTagsAndCountsIt) {
  std::ostringstream out;
  console::PrintChecks(ReportWithAnUnstableRule().checks, out);
  std::string text = out.str();
  EXPECT_NE(text.find("  UNSTABLE /data  etcd_wal_fsync_p99"), std::string::npos) << text;
  EXPECT_NE(text.find("0 passed, 0 failed, 0 could not be evaluated, 0 skipped, 1 unstable"),
            std::string::npos)
      << text;
}

// check exits 2 on an unstable rule, so its headline is never PASS: the whole document (a
// terminal, a file) and the piped, streamed one open their verdict with the same line.
TEST(UnstableCheckCiTest, TheHeadlineSaysUnstableNeverPass) {
  const std::string headline =
      "check: UNSTABLE, rule etcd_wal_fsync_p99 on /data: unstable: the device moved during the "
      "run (Checks below)\n";
  model::Report report = ReportWithAnUnstableRule();
  std::ostringstream verdict;
  console::PrintCheckVerdict(report.checks, verdict);
  EXPECT_EQ(verdict.str(), headline);

  std::ostringstream whole;
  console::PrintReport(report, whole);
  EXPECT_NE(whole.str().find(headline), std::string::npos) << whole.str();
  EXPECT_EQ(whole.str().find("PASS"), std::string::npos) << whole.str();

  // On a terminal the recap at the end says it again, pointing up at the Checks.
  std::ostringstream terminal;
  text::SetLineWidth(terminal, 100);
  console::PrintReport(report, terminal);
  EXPECT_NE(terminal.str().find("check: UNSTABLE, rule etcd_wal_fsync_p99 on /data: unstable: "
                                "the device moved during the run (Checks above)\n"),
            std::string::npos)
      << terminal.str();
  EXPECT_EQ(terminal.str().find("PASS"), std::string::npos) << terminal.str();

  // A failing rule beside it still leads: check exits 1 for it.
  model::CheckResult failed = report.checks[0];
  failed.rule = "durable";
  failed.outcome = model::CheckOutcome::kFail;
  report.checks.push_back(failed);
  std::ostringstream both;
  console::PrintCheckVerdict(report.checks, both);
  EXPECT_EQ(both.str().rfind("check: FAIL, first failing rule durable on /data", 0), 0u)
      << both.str();
}

// A pass with a warning (PASS*: durable on an unproven path) is named in the headline too: a
// plain `check: PASS` over a PASS* row would hide what the row says would prove it.
TEST(UnstableCheckCiTest, TheHeadlineNamesAPassWithAWarning) {
  model::Report report = ReportWithAnUnstableRule();
  model::CheckResult& durable = report.checks[0];
  durable.rule = "durable";
  durable.outcome = model::CheckOutcome::kPass;
  durable.warning = true;
  durable.unit = model::CheckUnit::kNone;
  durable.message = "unproven: a FUSE server decides what a sync does";
  model::CheckResult plain = durable;
  plain.rule = "etcd_wal_fsync_p99";
  plain.warning = false;
  report.checks.insert(report.checks.begin(), plain);
  std::ostringstream verdict;
  console::PrintCheckVerdict(report.checks, verdict);
  EXPECT_EQ(verdict.str(),
            "check: PASS* (2 rule(s), 1 passed with a warning: rule durable on /data: unproven: a "
            "FUSE server decides what a sync does; Checks below)\n");
  report.checks.pop_back();
  std::ostringstream clean;
  console::PrintCheckVerdict(report.checks, clean);
  EXPECT_EQ(clean.str(), "check: PASS (1 rule(s), Checks below)\n");
}

}  // namespace
}  // namespace durprobe::render
