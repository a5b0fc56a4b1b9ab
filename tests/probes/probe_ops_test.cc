// Several writes per operation (pg_test_fsync's "two writes, one sync"): the op makes that many
// writes, then the primitive's one sync; the O_*SYNC methods have no separate sync at all.
#include <gtest/gtest.h>

#include "probes/runner.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::probes {
namespace {

class ProbeOpsTest : public ::testing::Test {
 protected:
  ProbeResult Run(const ProbeSpec& spec) {
    StopRule rule;
    rule.warmup_ops = 0;
    rule.min_ns = 1'000'000;
    rule.max_ns = 100'000'000;
    rule.max_ops = 20;
    OpOptions options;
    options.file_size = 1 << 20;
    return RunProbe(traced_, dir_.path(), spec, rule, options);
  }

  // The calls after setup's last sync (the preallocated file made durable).
  std::string TimedCalls() const {
    const std::string& trace = traced_.call_trace();
    return trace.substr(trace.find('s') + 1);
  }

  platform::FaultPlatform traced_{platform::Default()};
  testing_support::TempDir dir_;
};

TEST_F(ProbeOpsTest, TwoWritesThenOneSync) {
  ProbeResult r = Run({Primitive::kFdatasync, Pattern::kOverwrite, 8192, 2});
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.reason;
  ASSERT_GT(r.ops, 0u);
  std::string expected;
  for (std::uint64_t i = 0; i < r.ops + r.warmup_ops; ++i) expected += "wws";
  EXPECT_EQ(TimedCalls(), expected);
}

TEST_F(ProbeOpsTest, OneWriteIsStillOneWritePerSync) {
  ProbeResult r = Run({Primitive::kFsync, Pattern::kOverwrite, 8192});
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.reason;
  std::string expected;
  for (std::uint64_t i = 0; i < r.ops + r.warmup_ops; ++i) expected += "ws";
  EXPECT_EQ(TimedCalls(), expected);
}

TEST_F(ProbeOpsTest, OpenSyncWritesEachSyncThemselves) {
  ProbeResult r = Run({Primitive::kOsync, Pattern::kOverwrite, 4096, 4});
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.reason;
  EXPECT_FALSE(r.has_sync_part);
  EXPECT_EQ(TimedCalls(), std::string(4 * (r.ops + r.warmup_ops), 'w'));
}

TEST_F(ProbeOpsTest, SeveralWritesGoWithTheWritePatternsOnly) {
  EXPECT_TRUE(Validate({Primitive::kFdatasync, Pattern::kAppend, 8192, 2}).ok());
  EXPECT_FALSE(Validate({Primitive::kFsync, Pattern::kWriteSyncClose, 8192, 2}).ok());
  EXPECT_FALSE(Validate({Primitive::kDirFsync, Pattern::kCreate, 0, 2}).ok());
  EXPECT_FALSE(Validate({Primitive::kFsync, Pattern::kOverwrite, 8192, 0}).ok());
  EXPECT_FALSE(Validate({Primitive::kFsync, Pattern::kOverwrite, 8192, kMaxWritesPerOp + 1}).ok());
}

}  // namespace
}  // namespace durprobe::probes
