// A probe operation on the fake clock (FaultPlatform::UseFakeClock) whose every duration the
// test chooses, for the timed loop's tests: each count and elapsed time they assert is exact.
#pragma once

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <utility>
#include <vector>

#include "probes/probe_ops.h"
#include "probes/timed_loop.h"
#include "tests/support/fault_platform.h"

namespace durprobe::testing_support {

inline constexpr std::uint64_t kMs = 1'000'000;

// An operation that takes the durations it is given (cycling), on the fake clock: write_ns
// before its sync part, sync_ns for the sync. Records which operations timed their sync.
class ScriptedOp final : public probes::ProbeOp {
 public:
  ScriptedOp(platform::FaultPlatform& p, std::vector<std::uint64_t> write_ns, std::uint64_t sync_ns)
      : p_(p), write_ns_(std::move(write_ns)), sync_ns_(sync_ns) {}

  Status Setup() override { return Status::Ok(); }
  Status RunOnce(probes::OpTiming* t) override {
    EXPECT_EQ(t->start_ns, p_.NowNanos()) << "an operation starts where the previous one ended";
    p_.AdvanceClock(write_ns_[runs_ % write_ns_.size()]);
    ++runs_;
    timed_sync_.push_back(t->time_sync);
    std::uint64_t s0 = p_.NowNanos();
    p_.AdvanceClock(sync_ns_);
    t->end_ns = p_.NowNanos();
    t->sync_ns = t->time_sync ? t->end_ns - s0 : 0;
    if (fail_at_ != 0 && runs_ == fail_at_) return Status::FromErrno(EIO, "fsync");
    return Status::Ok();
  }
  bool NeedsMaintenance() const override {
    return maintain_every_ != 0 && runs_ % maintain_every_ == 0;
  }
  Status Maintain() override {
    ++maintenances_;
    p_.AdvanceClock(maintain_ns_);
    return Status::Ok();
  }
  bool has_sync_part() const override { return sync_ns_ > 0; }
  Status Teardown() override { return Status::Ok(); }

  platform::FaultPlatform& p_;
  std::vector<std::uint64_t> write_ns_;
  std::uint64_t sync_ns_;
  std::uint64_t runs_ = 0;
  std::uint64_t fail_at_ = 0;  // 1-based run that fails; 0: none
  std::uint64_t maintain_every_ = 0, maintain_ns_ = 0, maintenances_ = 0;
  std::vector<bool> timed_sync_;
};

// A stop rule with a warm-up of 5 operations or 50 ms, and at least 30 operations over 200 ms
// before it may stop, 2 s at most.
inline probes::StopRule ScriptedRule() {
  probes::StopRule rule;
  rule.warmup_ops = 5;
  rule.warmup_ns = 50 * kMs;
  rule.min_ops = 30;
  rule.min_ns = 200 * kMs;
  rule.max_ns = 2000 * kMs;
  return rule;
}

}  // namespace durprobe::testing_support
