// The fault wrapper makes probes report failures as results, never crash or retry into success.
#include <gtest/gtest.h>

#include <cerrno>

#include "probes/runner.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::probes {
namespace {

class FaultInjectionTest : public ::testing::Test {
 protected:
  ProbeResult Run(Primitive prim, Pattern pat) {
    StopRule rule;
    rule.warmup_ops = 0;
    rule.min_ns = 1'000'000;
    rule.max_ns = 100'000'000;
    rule.max_ops = 50;
    OpOptions options;
    options.file_size = 1 << 20;
    return RunProbe(faulty_, dir_.path(), ProbeSpec{prim, pat, 4096}, rule, options);
  }

  platform::FaultPlatform faulty_{platform::Default()};
  testing_support::TempDir dir_;
};

TEST_F(FaultInjectionTest, FailedFsyncIsReportedWithErrnoText) {
  faulty_.FailSyncs(EIO, /*after_calls=*/3);  // setup's own fsync and two timed syncs pass
  ProbeResult r = Run(Primitive::kFsync, Pattern::kOverwrite);
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_NE(r.reason.find("Input/output error"), std::string::npos) << r.reason;
  // Once failed, the probe stops: no retry turns the failure into a success.
  EXPECT_EQ(faulty_.sync_calls(), 4);
}

TEST_F(FaultInjectionTest, EnospcOnWriteIsReported) {
  faulty_.FailWrites(ENOSPC);
  ProbeResult r = Run(Primitive::kFdatasync, Pattern::kAppend);
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_NE(r.reason.find("No space left on device"), std::string::npos) << r.reason;
  EXPECT_EQ(r.ops, 0u);
}

TEST_F(FaultInjectionTest, FailedOpenIsReported) {
  faulty_.FailOpens(EACCES);
  ProbeResult r = Run(Primitive::kOdsync, Pattern::kOverwrite);
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_NE(r.reason.find("Permission denied"), std::string::npos) << r.reason;
}

TEST_F(FaultInjectionTest, FailedDirectorySyncIsReported) {
  faulty_.FailSyncs(EIO, /*after_calls=*/1);
  ProbeResult r = Run(Primitive::kDirFsync, Pattern::kCreate);
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_NE(r.reason.find("Input/output error"), std::string::npos) << r.reason;
}

TEST_F(FaultInjectionTest, AddedSyncLatencyShowsInTheSyncPart) {
  faulty_.AddSyncLatency(2'000'000);  // 2 ms: far above any real fsync on a tmp dir's cache
  ProbeResult r = Run(Primitive::kFdatasync, Pattern::kOverwrite);
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.reason;
  ASSERT_TRUE(r.has_sync_part);
  EXPECT_GE(r.sync_latency.min, 2'000'000u);
  EXPECT_GE(r.latency.min, r.sync_latency.min);
}

TEST_F(FaultInjectionTest, ProbesLeaveNoFilesBehind) {
  for (Primitive p : {Primitive::kNone, Primitive::kFsync, Primitive::kOdsync}) {
    ASSERT_EQ(Run(p, Pattern::kAppend).outcome, Outcome::kOk);
  }
  ASSERT_EQ(Run(Primitive::kDirFsync, Pattern::kRename).outcome, Outcome::kOk);
  ASSERT_EQ(Run(Primitive::kFsync, Pattern::kWriteCloseSync).outcome, Outcome::kOk);
  auto names = platform::Default().ListDirectory(dir_.path());
  ASSERT_TRUE(names.ok());
  EXPECT_TRUE(names->empty()) << names->front();
}

}  // namespace
}  // namespace durprobe::probes
