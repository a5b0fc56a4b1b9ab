// Concurrent syncers: N writers really run at once on N threads (or N processes), each making
// one write and one sync per operation, the way the ordinary probe does; failures stop every
// writer and come back with their reason.
#include "probes/concurrency.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>

#include "probes/runner.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::probes {
namespace {

constexpr std::uint64_t kFileSize = 64 << 10;  // one preallocation write and fsync per file

StopRule ShortRule() {
  StopRule rule;
  rule.warmup_ops = 2;
  rule.warmup_ns = 10'000'000;
  rule.min_ns = 30'000'000;
  rule.max_ns = 30'000'000;
  rule.target_ci = 0.0;
  return rule;
}

std::size_t Count(const std::string& trace, char c) {
  return static_cast<std::size_t>(std::count(trace.begin(), trace.end(), c));
}

class ConcurrentWritersTest : public ::testing::Test {
 protected:
  ConcurrencyResult Run(std::uint32_t writers, WriterMode mode,
                        Primitive primitive = Primitive::kFdatasync) {
    return RunConcurrency(faulty_, dir_.path(), ConcurrencySpec{writers, mode, primitive, 4096},
                          ShortRule(), kFileSize);
  }

  platform::FaultPlatform faulty_{platform::Default()};
  testing_support::TempDir dir_;
};

TEST_F(ConcurrentWritersTest, ThreadsModeRunsEachWriterOnItsOwnThreadWithOneSyncPerOperation) {
  ConcurrencyResult r = Run(4, WriterMode::kThreads);
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.reason;
  EXPECT_EQ(faulty_.data_call_threads(), 4u);  // the writers' threads, and no other
  EXPECT_EQ(r.writers_seen, 4u);
  const std::string& trace = faulty_.call_trace();
  // Each writer: one preallocation write and fsync, then a write and a sync per operation.
  EXPECT_EQ(Count(trace, 's'), r.ops + r.warmup_ops + 4);
  EXPECT_EQ(Count(trace, 'w'), r.ops + r.warmup_ops + 4);
  EXPECT_GT(r.ops, 0u);
  EXPECT_GT(r.aggregate_ops_per_sec, 0.0);
  EXPECT_EQ(r.latency.count, r.ops);
  // Each writer had its own directory, removed afterwards.
  EXPECT_TRUE(platform::Default().ListDirectory(dir_.path())->empty());
}

TEST_F(ConcurrentWritersTest, SharedFileModeWritesOneFileFromEveryThread) {
  ConcurrencyResult r = Run(3, WriterMode::kSharedFile);
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.reason;
  // Three writers plus the calling thread, which laid out the shared file (one write, one fsync).
  EXPECT_EQ(faulty_.data_call_threads(), 4u);
  EXPECT_EQ(Count(faulty_.call_trace(), 's'), r.ops + r.warmup_ops + 1);
  EXPECT_TRUE(platform::Default().ListDirectory(dir_.path())->empty());
}

TEST_F(ConcurrentWritersTest, ProcessesModeSyncsInChildProcessesOnly) {
  ConcurrencyResult r = Run(3, WriterMode::kProcesses);
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.reason;
  EXPECT_EQ(r.writers_seen, 3u);  // three distinct processes, none of them this one
  EXPECT_GT(r.ops, 0u);
  // Every write and sync happened in the children: this process made none.
  EXPECT_EQ(faulty_.call_trace(), "");
  EXPECT_TRUE(platform::Default().ListDirectory(dir_.path())->empty());
}

TEST_F(ConcurrentWritersTest, OneWriterMakesTheOrdinaryProbesCallsPerOperation) {
  ConcurrencyResult one = Run(1, WriterMode::kThreads);
  ASSERT_EQ(one.outcome, Outcome::kOk) << one.reason;
  std::string concurrent = faulty_.call_trace();
  platform::FaultPlatform plain{platform::Default()};
  ProbeResult probe =
      RunProbe(plain, dir_.path(), ProbeSpec{Primitive::kFdatasync, Pattern::kOverwrite, 4096},
               ShortRule(), OpOptions{.file_size = kFileSize});
  ASSERT_EQ(probe.outcome, Outcome::kOk) << probe.reason;
  // Setup "ws", then "ws" per operation, in both.
  auto repeated = [](std::uint64_t n) {
    std::string s;
    for (std::uint64_t i = 0; i < n; ++i) s += "ws";
    return s;
  };
  EXPECT_EQ(concurrent, repeated(one.ops + one.warmup_ops + 1));
  EXPECT_EQ(plain.call_trace(), repeated(probe.ops + probe.warmup_ops + 1));
}

TEST_F(ConcurrentWritersTest, AFailedSyncStopsTheRunWithItsReason) {
  faulty_.FailSyncs(EIO, /*after_calls=*/10);
  ConcurrencyResult r = Run(2, WriterMode::kThreads);
  EXPECT_EQ(r.outcome, Outcome::kError);
  EXPECT_NE(r.reason.find("Input/output error"), std::string::npos) << r.reason;
  EXPECT_TRUE(platform::Default().ListDirectory(dir_.path())->empty());
}

TEST_F(ConcurrentWritersTest, IoUringWritersSubmitOneLinkedWriteAndSyncPerOperation) {
  ConcurrencyResult r = Run(2, WriterMode::kThreads, Primitive::kIoUringFdatasync);
  if (r.outcome == Outcome::kUnsupported) GTEST_SKIP() << "io_uring refused here: " << r.reason;
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.reason;
  EXPECT_EQ(Count(faulty_.call_trace(), 'u'), r.ops + r.warmup_ops);
  EXPECT_EQ(Count(faulty_.call_trace(), 's'), 2u);  // the two files' preallocation only
  EXPECT_EQ(faulty_.data_call_threads(), 2u);
}

TEST(ConcurrencySpecTest, ValidateNamesWhatIsWrong) {
  EXPECT_TRUE(Validate(ConcurrencySpec{}).ok());
  EXPECT_FALSE(Validate(ConcurrencySpec{.writers = 0}).ok());
  EXPECT_FALSE(Validate(ConcurrencySpec{.writers = kMaxWriters + 1}).ok());
  Status none = Validate(ConcurrencySpec{.primitive = Primitive::kNone});
  EXPECT_NE(none.message().find("not none"), std::string::npos) << none.message();
  EXPECT_FALSE(Validate(ConcurrencySpec{.primitive = Primitive::kDirFsync}).ok());
  EXPECT_EQ(WriterModeNames().size(), AllWriterModes().size());
  for (WriterMode m : AllWriterModes()) EXPECT_EQ(WriterModeNames().at(std::string(NameOf(m))), m);
}

TEST(ConcurrencySpecTest, ScalingIsAgainstTheOneWriterRowOfTheSameMode) {
  auto row = [](std::uint32_t n, WriterMode m, double agg) {
    ConcurrencyResult r;
    r.spec = {n, m, Primitive::kFdatasync, 4096};
    r.aggregate_ops_per_sec = agg;
    r.ops = 10;
    return r;
  };
  std::vector<ConcurrencyResult> rows = {
      row(1, WriterMode::kThreads, 100), row(4, WriterMode::kThreads, 300),
      row(1, WriterMode::kProcesses, 50), row(4, WriterMode::kProcesses, 50),
      row(8, WriterMode::kSharedFile, 80)};
  SetScaling(rows);
  EXPECT_DOUBLE_EQ(rows[0].scaling, 1.0);
  EXPECT_DOUBLE_EQ(rows[1].scaling, 3.0);
  EXPECT_DOUBLE_EQ(rows[3].scaling, 1.0);
  EXPECT_DOUBLE_EQ(rows[4].scaling, 0.0);  // no one-writer shared_file row to scale against
}

}  // namespace
}  // namespace durprobe::probes
