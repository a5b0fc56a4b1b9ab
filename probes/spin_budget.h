// A probe's waits on the CPU (the pacing between syncs, a database's work between commits) under
// a CPU quota. Spinning is how a busy server waits, and it keeps the CPU from going idle before a
// sync; but under a CFS quota a spin spends the quota, the kernel throttles the whole process,
// and the next sync's completion is seen tens of milliseconds late, on the CPU's account rather
// than the disk's. So under a quota each wait sleeps the part the quota cannot pay for, then
// spins the rest, which keeps the CPU awake when the wait ends (docs/accuracy.md, "CPU limits").
#pragma once

#include <cstdint>

#include "platform/platform.h"

namespace durprobe::probes {

// The share of the quota the waits may spin: a token bucket filled at this share of the quota's
// rate, holding at most this share of one period's quota, spends at most twice the share of the
// quota in any one period however the kernel's periods fall. 0.4 leaves a fifth of the quota
// for the syncs' own CPU, the partner thread's messages and check's background threads.
inline constexpr double kQuotaSpinShare = 0.4;

class SpinBudget {
 public:
  // Without a limit in quota every wait spins whole.
  SpinBudget(platform::Platform& platform, const platform::CpuQuota& quota);

  bool limited() const { return rate_ > 0; }
  // How much of a wait of ns that starts now may spin: all of it without a quota; under one,
  // what the bucket holds plus what it earns during the wait. Taken from the bucket.
  std::uint64_t Take(std::uint64_t ns);
  // Waits ns: sleeps the part Take does not allow, then spins until the wait's end.
  void Wait(std::uint64_t ns);
  // For a caller that spins what Take allowed itself (round trips): records the sleep it did.
  void NoteSlept(std::uint64_t ns) { slept_ns_ += ns; }
  void NoteSpun(std::uint64_t ns) { spun_ns_ += ns; }

  std::uint64_t spun_ns() const { return spun_ns_; }
  std::uint64_t slept_ns() const { return slept_ns_; }

 private:
  platform::Platform& platform_;
  double rate_ = 0.0;  // spin ns earned per ns of the clock; 0: no quota
  double cap_ns_ = 0.0;
  double tokens_ns_ = 0.0;
  std::uint64_t last_ns_ = 0;  // when the bucket was last filled
  std::uint64_t spun_ns_ = 0;
  std::uint64_t slept_ns_ = 0;
};

}  // namespace durprobe::probes
