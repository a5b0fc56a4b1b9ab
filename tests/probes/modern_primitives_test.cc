// The modern sync paths each make the calls their names say, once per operation: rwf_dsync one
// pwritev2(RWF_DSYNC) and no separate sync, io_uring_fsync and io_uring_fdatasync one linked
// write-and-sync submission; refused by the platform, each is unsupported with the reason.
#include <gtest/gtest.h>

#include <algorithm>

#include "probes/runner.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::probes {
namespace {

class ModernPrimitivesTest : public ::testing::Test {
 protected:
  ProbeResult Run(Primitive primitive) {
    StopRule rule;
    rule.warmup_ops = 3;
    rule.min_ns = 1'000'000;
    rule.max_ns = 50'000'000;
    rule.max_ops = 40;
    return RunProbe(faulty_, dir_.path(), ProbeSpec{primitive, Pattern::kOverwrite, 4096}, rule,
                    OpOptions{.file_size = 64 << 10});
  }
  std::size_t Count(char c) const {
    const std::string& t = faulty_.call_trace();
    return static_cast<std::size_t>(std::count(t.begin(), t.end(), c));
  }

  platform::FaultPlatform faulty_{platform::Default()};
  testing_support::TempDir dir_;
};

TEST_F(ModernPrimitivesTest, RwfDsyncIsOneDsyncWritePerOperationAndNoSyncCall) {
  ProbeResult r = Run(Primitive::kRwfDsync);
  if (r.outcome == Outcome::kUnsupported) GTEST_SKIP() << "RWF_DSYNC refused: " << r.reason;
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.reason;
  EXPECT_EQ(Count('W'), r.ops + r.warmup_ops);
  EXPECT_EQ(Count('s'), 1u);  // the preallocation's fsync only
  EXPECT_FALSE(r.has_sync_part);
}

TEST_F(ModernPrimitivesTest, IoUringPrimitivesSubmitOneLinkedWriteAndSyncPerOperation) {
  for (Primitive p : {Primitive::kIoUringFsync, Primitive::kIoUringFdatasync}) {
    platform::FaultPlatform faulty{platform::Default()};
    StopRule rule;
    rule.warmup_ops = 2;
    rule.max_ns = 50'000'000;
    rule.max_ops = 30;
    ProbeResult r = RunProbe(faulty, dir_.path(), ProbeSpec{p, Pattern::kOverwrite, 4096}, rule,
                             OpOptions{.file_size = 64 << 10});
    if (r.outcome == Outcome::kUnsupported) GTEST_SKIP() << "io_uring refused: " << r.reason;
    ASSERT_EQ(r.outcome, Outcome::kOk) << NameOf(p) << ": " << r.reason;
    const std::string& t = faulty.call_trace();
    EXPECT_EQ(static_cast<std::uint64_t>(std::count(t.begin(), t.end(), 'u')), r.ops + r.warmup_ops)
        << NameOf(p);
    EXPECT_EQ(std::count(t.begin(), t.end(), 's'), 1) << NameOf(p);  // preallocation only
  }
}

TEST_F(ModernPrimitivesTest, RefusedByThePlatformEachIsUnsupportedWithTheReason) {
  faulty_.RefuseModernSync("io_uring_setup: Operation not permitted (seccomp)");
  for (Primitive p :
       {Primitive::kRwfDsync, Primitive::kIoUringFsync, Primitive::kIoUringFdatasync}) {
    ProbeResult r = Run(p);
    EXPECT_EQ(r.outcome, Outcome::kUnsupported) << NameOf(p);
    EXPECT_EQ(r.reason, "io_uring_setup: Operation not permitted (seccomp)") << NameOf(p);
  }
}

TEST_F(ModernPrimitivesTest, TheDefaultSetHoldsTheModernPathsAtOverwrite) {
  std::vector<ProbeSpec> specs = DefaultSpecs(platform::Default());
  for (Primitive p :
       {Primitive::kRwfDsync, Primitive::kIoUringFsync, Primitive::kIoUringFdatasync}) {
    auto n = std::count_if(specs.begin(), specs.end(),
                           [&](const ProbeSpec& s) { return s.primitive == p; });
    EXPECT_EQ(n, 1) << NameOf(p);
  }
  EXPECT_EQ(
      std::count_if(specs.begin(), specs.end(),
                    [](const ProbeSpec& s) { return s.primitive == Primitive::kOdirectDsync; }),
      2);
}

}  // namespace
}  // namespace durprobe::probes
