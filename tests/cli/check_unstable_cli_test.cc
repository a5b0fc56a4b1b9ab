// check's exit status with an unstable rule: 2 (could not measure reliably), said on stderr with
// the rule's message, unless another rule failed outright (1); never 0.
#include <gtest/gtest.h>

#include <vector>

#include "cli/cmd_check.h"
#include "cli/exit_status.h"

namespace durprobe::cli {
namespace {

model::CheckResult Rule(model::CheckOutcome outcome) {
  model::CheckResult c;
  c.rule = "etcd_wal_fsync_p99";
  c.path = "/data";
  c.outcome = outcome;
  c.message = "unstable: the device moved during the run";
  return c;
}

TEST(CheckUnstableCliTest, AnUnstableRuleExitsTwoUnlessAnotherFailed) {
  using model::CheckOutcome;
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(CheckExitCode({Rule(CheckOutcome::kPass), Rule(CheckOutcome::kUnstable)}),
            kExitUsage);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err,
            "durprobe: error: /data: etcd_wal_fsync_p99: unstable: the device moved during the "
            "run\n");
  EXPECT_EQ(CheckExitCode({Rule(CheckOutcome::kUnstable), Rule(CheckOutcome::kFail)}),
            kExitFail);
  EXPECT_EQ(CheckExitCode({Rule(CheckOutcome::kPass)}), kExitOk);
}

}  // namespace
}  // namespace durprobe::cli
