// cli/exit_status.h: the failure lines on stderr and the two contracts kept apart, a count
// (PrintMeasurementFailures) and an exit code (MeasurementExitCode).
#include <gtest/gtest.h>

#include <string>

#include "cli/exit_status.h"

namespace durprobe {
namespace {

model::Report TwoFailedProbes() {
  model::Report r;
  model::Target t;
  t.path = "/mnt/a";
  for (const char* reason : {"fsync: Input/output error", "write: No space left on device"}) {
    probes::ProbeResult p;
    p.outcome = probes::Outcome::kError;
    p.reason = reason;
    t.probes.push_back(p);
  }
  probes::ProbeResult fine;
  t.probes.push_back(fine);
  r.targets.push_back(t);
  return r;
}

TEST(ExitStatusCliTest, UsageErrorIsOneLineAndExitTwo) {
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cli::UsageError("path 'x' does not exist"), cli::kExitUsage);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "durprobe: error: path 'x' does not exist\n");
}

TEST(ExitStatusCliTest, PrintMeasurementFailuresCountsAndMeasurementExitCodeIsOne) {
  model::Report failed = TwoFailedProbes();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cli::PrintMeasurementFailures(failed), 2);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.rfind("durprobe: error: /mnt/a: ", 0), 0u) << err;
  EXPECT_NE(err.find(": fsync: Input/output error\n"), std::string::npos) << err;
  EXPECT_NE(err.find(": write: No space left on device\n"), std::string::npos) << err;

  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cli::MeasurementExitCode(failed), cli::kExitFail);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), err) << "the same lines";
}

// Issue 32 item 10: a concurrency cell whose writer could not start (and an op cost of compare
// that failed) is a failed measurement like a probe's: a line each and exit 1.
TEST(ExitStatusCliTest, AFailedWriterCellAndOpCostAreFailuresToo) {
  model::Report r;
  r.targets.emplace_back();
  r.targets[0].path = "/mnt/a";
  probes::ConcurrencyResult cell;
  cell.spec.writers = 16;
  cell.outcome = probes::Outcome::kError;
  cell.reason = "cannot start a thread: Resource temporarily unavailable";
  r.targets[0].concurrency = {probes::ConcurrencyResult{}, cell};
  probes::OpCostResult op;
  op.op = probes::FileOp::kRename;
  op.outcome = probes::Outcome::kError;
  op.reason = "rename: Input/output error";
  r.targets[0].op_costs = {op};
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cli::MeasurementExitCode(r), cli::kExitFail);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("durprobe: error: /mnt/a: 16 writers threads fdatasync 4 KiB: cannot start "
                     "a thread: Resource temporarily unavailable\n"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("durprobe: error: /mnt/a: rename cost: rename: Input/output error\n"),
            std::string::npos)
      << err;
}

TEST(ExitStatusCliTest, NothingFailedPrintsNothing) {
  model::Report fine;
  fine.targets.emplace_back();
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(cli::PrintMeasurementFailures(fine), 0);
  EXPECT_EQ(cli::MeasurementExitCode(fine), cli::kExitOk);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

}  // namespace
}  // namespace durprobe
