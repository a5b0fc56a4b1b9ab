// An interrupted check in the CI formats: every rule that did not fail is an error test case in
// the JUnit file and a pass series at 0 in the Prometheus file, never a pass or a missing series.
#include <gtest/gtest.h>

#include <sstream>

#include "gate/rules.h"
#include "render/junit/junit_reporter.h"
#include "render/prometheus/prometheus_reporter.h"
#include "tests/check_report_fixture.h"

namespace durprobe::render {
namespace {

model::Report InterruptedFixture(const std::vector<std::string>& extra_paths = {}) {
  model::Report r = testing_support::CheckReportFixture();
  r.context.interrupted = true;
  r.context.interrupt_signal = 15;
  std::vector<std::string> paths = extra_paths;
  for (const model::Target& t : r.targets) paths.push_back(t.path);
  gate::MarkInterrupted(r.checks, paths, 15);
  return r;
}

TEST(InterruptedCheckTest, EveryRuleThatDidNotFailBecomesAnError) {
  model::Report r = InterruptedFixture({"/never/reached"});
  int fails = 0;
  for (const model::CheckResult& c : r.checks) {
    if (c.outcome == model::CheckOutcome::kFail) {
      ++fails;
      continue;
    }
    EXPECT_EQ(c.outcome, model::CheckOutcome::kError) << c.rule;
    EXPECT_EQ(c.message.rfind("interrupted by SIGTERM before the check finished", 0), 0u)
        << c.message;
  }
  EXPECT_EQ(fails, 1);  // measured before the signal: still a failure
  ASSERT_FALSE(r.checks.empty());
  EXPECT_EQ(r.checks.back().path, "/never/reached");
  EXPECT_EQ(r.checks.back().rule, "check_finished");
}

TEST(InterruptedCheckTest, JunitHoldsAnErrorTestCaseEvenWithNoRuleEvaluated) {
  model::Report r;
  r.context.interrupted = true;
  gate::MarkInterrupted(r.checks, {"/data"}, 2);
  std::ostringstream out;
  ASSERT_TRUE(junit::JunitReporter().Write(r, out).ok());
  EXPECT_NE(out.str().find("tests=\"1\" failures=\"0\" errors=\"1\""), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("<error type=\"not_measured\" message=\"interrupted by SIGINT"),
            std::string::npos)
      << out.str();
}

TEST(InterruptedCheckTest, PrometheusKeepsEveryPassSeriesAtZero) {
  model::Report r = InterruptedFixture();
  std::ostringstream out;
  ASSERT_TRUE(prometheus::PrometheusReporter().Write(r, out).ok());
  std::string text = out.str();
  for (const model::CheckResult& c : r.checks) {
    std::string series = "durprobe_check_pass{path=\"" + prometheus::PromLabel(c.path) +
                         "\",rule=\"" + c.rule + "\"} 0\n";
    EXPECT_NE(text.find(series), std::string::npos) << series << text;
  }
  EXPECT_EQ(
      text.find("durprobe_check_pass{path=\"/var/lib/etcd\",rule=\"etcd_backend_commit_p99\"} 1"),
      std::string::npos);
}

}  // namespace
}  // namespace durprobe::render
