// A claim decided from its samples with the noise bound they give, or left open: the one rule
// that compare's penalties and check's limits read, so that no figure timed on too few
// operations is presented as a finding (docs/accuracy.md, "Decided, or cannot tell").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace durprobe::analysis {

enum class Decision {
  kYes,         // decided: the claim holds beyond the noise
  kNo,          // decided: it does not
  kCannotTell,  // the samples' bound reaches both answers, or there is no bound at all
};
// "yes", "no", "cannot tell"
std::string_view NameOf(Decision d);

// A ratio (here / there) with the bound its two sides' intervals give; no bound when either
// side timed too few operations for one (probes::CiSupported).
struct RatioEvidence {
  double ratio = 0;
  std::optional<double> low, high;
};

// Whether here costs threshold times there or more: yes when the ratio reaches the threshold and
// its bound's low end is above 1 (the gap is beyond the noise); no when the ratio is below the
// threshold and bounded; cannot tell for a ratio at the threshold whose bound reaches 1, and for
// any ratio without a bound.
Decision DecidePenalty(const RatioEvidence& e, double threshold);

// A figure's interval against a limit it must stay below: yes when the interval's high end is
// below the limit, no when its low end is at or above it, cannot tell when the interval holds
// the limit or comes from fewer than min_samples samples.
Decision DecideBelow(double low, double high, double limit, std::uint64_t samples,
                     std::uint64_t min_samples);

}  // namespace durprobe::analysis
