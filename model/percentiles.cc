#include "model/percentiles.h"

namespace durprobe::model {
namespace {

std::optional<std::uint64_t> IfSupported(double q, std::uint64_t value, std::uint64_t count) {
  if (!PercentileSupported(q, count)) return std::nullopt;
  return value;
}

}  // namespace

bool PercentileSupported(double q, std::uint64_t count) {
  // The tolerance absorbs binary rounding (1 - 0.99 is not exactly 0.01).
  return static_cast<double>(count) * (1.0 - q) >= 1.0 - 1e-9;
}

std::optional<std::uint64_t> P90(const probes::LatencySummary& s) {
  return IfSupported(0.90, s.p90, s.count);
}
std::optional<std::uint64_t> P99(const probes::LatencySummary& s) {
  return IfSupported(0.99, s.p99, s.count);
}
std::optional<std::uint64_t> P999(const probes::LatencySummary& s) {
  return IfSupported(0.999, s.p999, s.count);
}
std::optional<std::uint64_t> P9999(const probes::LatencySummary& s) {
  if (s.p9999 == 0) return std::nullopt;
  return IfSupported(0.9999, s.p9999, s.count);
}

}  // namespace durprobe::model
