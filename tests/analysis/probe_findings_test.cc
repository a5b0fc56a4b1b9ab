// A measurement that failed is a probe_error finding, whichever probe it was: an ordinary probe,
// an op-cost probe or a concurrency cell (a writer that could not start, issue 32 item 10).
#include "analysis/probe_findings.h"

#include <gtest/gtest.h>

namespace durprobe::analysis {
namespace {

TEST(ProbeFindingsTest, AConcurrencyCellThatFailedIsAProbeError) {
  model::Target t;
  probes::ConcurrencyResult ok;
  ok.spec.writers = 1;
  probes::ConcurrencyResult failed;
  failed.spec.writers = 16;
  failed.outcome = probes::Outcome::kError;
  failed.reason = "cannot start a thread: Resource temporarily unavailable";
  probes::ConcurrencyResult unsupported;
  unsupported.spec.writers = 2;
  unsupported.outcome = probes::Outcome::kUnsupported;
  t.concurrency = {ok, failed, unsupported};
  std::vector<model::Finding> f = ProbeErrorFindings(t);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].code, "probe_error");
  EXPECT_EQ(f[0].severity, model::Severity::kFail);
  EXPECT_NE(f[0].message.find("16 writers threads fdatasync 4 KiB could not be measured: cannot "
                              "start a thread"),
            std::string::npos)
      << f[0].message;
}

}  // namespace
}  // namespace durprobe::analysis
