#include "run/deadline.h"

#include <algorithm>

namespace durprobe::run {

Timeline::Timeline(platform::Platform& platform, std::uint64_t budget_ns)
    : platform_(platform),
      run_ns_(budget_ns == 0 ? kNoDeadline : platform.NowNanos() + budget_ns),
      phase_ns_(run_ns_) {}

void Timeline::StartPhase(std::uint64_t planned_ns, std::uint64_t later_ns) {
  if (run_ns_ == kNoDeadline || planned_ns == kNoDeadline) {
    phase_ns_ = planned_ns == kNoDeadline ? kNoDeadline : run_ns_;
    return;
  }
  std::uint64_t now = platform_.NowNanos();
  std::uint64_t left = run_ns_ > now ? run_ns_ - now : 0;
  long double whole = static_cast<long double>(planned_ns) + static_cast<long double>(later_ns);
  std::uint64_t share =
      whole <= 0 ? left
                 : static_cast<std::uint64_t>(static_cast<long double>(left) *
                                              static_cast<long double>(planned_ns) / whole);
  phase_ns_ = std::min(run_ns_, now + share);
}

bool Timeline::Spent() const {
  return phase_ns_ != kNoDeadline && platform_.NowNanos() >= phase_ns_;
}

bool Timeline::RunSpent() const {
  return run_ns_ != kNoDeadline && platform_.NowNanos() >= run_ns_;
}

std::uint64_t Timeline::Left() const {
  if (phase_ns_ == kNoDeadline) return kNoDeadline;
  std::uint64_t now = platform_.NowNanos();
  return phase_ns_ > now ? phase_ns_ - now : 0;
}

StepShares::StepShares(platform::Platform& platform, const Timeline& timeline, std::uint64_t shares)
    : platform_(platform), timeline_(timeline), shares_(shares), last_ns_(platform.NowNanos()) {}

std::uint64_t StepShares::Share(std::uint64_t shares) const {
  std::uint64_t left = timeline_.Left();
  if (left == kNoDeadline) return left;
  std::uint64_t still = shares_ > done_ ? shares_ - done_ : shares;
  std::uint64_t fixed = done_ == 0 ? 0 : fixed_ns_ / done_ * still;  // the shares' mean so far
  return left > fixed ? (left - fixed) / still * std::min(shares, still) : 0;
}

void StepShares::Done(std::uint64_t timed_ns, std::uint64_t shares) {
  std::uint64_t now = platform_.NowNanos();
  std::uint64_t took = now - last_ns_;
  fixed_ns_ += took > timed_ns ? took - timed_ns : 0;
  last_ns_ = now;
  done_ += shares;
}

std::uint64_t PartUntil(std::uint64_t now_ns, std::uint64_t until_ns, std::uint64_t parts,
                        std::uint64_t take) {
  if (until_ns == 0 || now_ns >= until_ns || parts == 0) return until_ns;
  return now_ns + (until_ns - now_ns) / parts * std::min(take, parts);
}

std::uint64_t StepShares::ReserveUntil(std::uint64_t until_ns, std::uint64_t shares) const {
  const std::uint64_t still = shares_ > done_ ? shares_ - done_ : shares;
  return PartUntil(platform_.NowNanos(), until_ns, still, shares);
}

probes::StopRule CutTo(probes::StopRule rule, std::uint64_t left_ns) {
  rule.max_ns = std::min(rule.max_ns, left_ns);
  rule.min_ns = std::min(rule.min_ns, rule.max_ns);
  rule.warmup_ns = std::min(rule.warmup_ns, rule.max_ns);
  return rule;
}

}  // namespace durprobe::run
