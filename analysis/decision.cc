#include "analysis/decision.h"

namespace durprobe::analysis {

std::string_view NameOf(Decision d) {
  switch (d) {
    case Decision::kYes:
      return "yes";
    case Decision::kNo:
      return "no";
    case Decision::kCannotTell:
      return "cannot tell";
  }
  return "";
}

Decision DecidePenalty(const RatioEvidence& e, double threshold) {
  if (!e.low || !e.high) return Decision::kCannotTell;
  if (e.ratio < threshold) return Decision::kNo;
  return *e.low > 1.0 ? Decision::kYes : Decision::kCannotTell;
}

Decision DecideBelow(double low, double high, double limit, std::uint64_t samples,
                     std::uint64_t min_samples) {
  if (samples < min_samples) return Decision::kCannotTell;
  if (high < limit) return Decision::kYes;
  if (low >= limit) return Decision::kNo;
  return Decision::kCannotTell;
}

}  // namespace durprobe::analysis
