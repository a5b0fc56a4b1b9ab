#include "analysis/drift_level.h"

#include <algorithm>

namespace durprobe::analysis {

bool Drifted(double a, double b) {
  double lo = std::min(a, b), hi = std::max(a, b);
  return lo > 0 && hi / lo >= kMinDriftRatio && hi - lo >= kMinDriftNs;
}

double ReferenceLevel(const model::ReferenceSample& sample) {
  return sample.mean_ns > 0 ? sample.mean_ns : double(sample.p50_ns);
}

}  // namespace durprobe::analysis
