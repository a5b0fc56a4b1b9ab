#include "probes/spin_budget.h"

#include <algorithm>

namespace durprobe::probes {

SpinBudget::SpinBudget(platform::Platform& platform, const platform::CpuQuota& quota)
    : platform_(platform) {
  if (!quota.limited()) return;
  rate_ = kQuotaSpinShare * quota.cpus();
  cap_ns_ = kQuotaSpinShare * static_cast<double>(quota.quota_us) * 1000.0;
  tokens_ns_ = cap_ns_;
  last_ns_ = platform_.NowNanos();
}

std::uint64_t SpinBudget::Take(std::uint64_t ns) {
  if (!limited()) return ns;
  const std::uint64_t now = platform_.NowNanos();
  if (now > last_ns_) {
    tokens_ns_ = std::min(cap_ns_, tokens_ns_ + rate_ * static_cast<double>(now - last_ns_));
  }
  const double available = tokens_ns_ + rate_ * static_cast<double>(ns);
  const std::uint64_t allowed =
      std::min<std::uint64_t>(ns, static_cast<std::uint64_t>(std::max(0.0, available)));
  tokens_ns_ = std::min(cap_ns_, available - static_cast<double>(allowed));
  last_ns_ = now + ns;  // what the wait earns is counted above, not again at the next Take
  return allowed;
}

void SpinBudget::Wait(std::uint64_t ns) {
  if (ns == 0) return;
  if (!limited()) {
    platform_.SpinNanos(ns);
    spun_ns_ += ns;
    return;
  }
  const std::uint64_t start = platform_.NowNanos();
  const std::uint64_t spin = Take(ns);
  if (spin < ns) {
    platform_.SleepNanos(ns - spin);
    slept_ns_ += ns - spin;
  }
  // A late wake-up shortens the spin, so the wait still ends when it was due.
  const std::uint64_t now = platform_.NowNanos();
  const std::uint64_t until = start + ns;
  const std::uint64_t left = until > now ? std::min(spin, until - now) : 0;
  if (left > 0) {
    platform_.SpinNanos(left);
    spun_ns_ += left;
  }
}

}  // namespace durprobe::probes
