#include "codec/json_reader_sections.h"

#include <string_view>

namespace durprobe::report {

probes::Outcome ReadOutcome(const JsonFields& f) {
  static const auto kOutcomes = NamesOf({probes::Outcome::kOk, probes::Outcome::kUnsupported,
                                         probes::Outcome::kError, probes::Outcome::kInterrupted});
  return f.Enum("status", kOutcomes, probes::Outcome::kOk);
}

probes::LatencySummary ReadLatency(const JsonFields& f,
                                   std::initializer_list<const char*> required) {
  auto need = [&](const char* key) {
    for (const char* r : required) {
      if (std::string_view(r) == key) return Need::kRequired;
    }
    return Need::kOptional;
  };
  probes::LatencySummary s;
  s.min = f.Uint("min", need("min"));
  s.p50 = f.Uint("p50", need("p50"));
  s.p90 = f.Uint("p90", need("p90"));
  s.p99 = f.Uint("p99", need("p99"));
  s.p999 = f.Uint("p999", need("p999"));
  s.p9999 = f.Uint("p9999");
  s.max = f.Uint("max", need("max"));
  s.mean = f.Double("mean", need("mean"));
  s.p50_ci_low = f.Uint("p50_ci_low");
  s.p50_ci_high = f.Uint("p50_ci_high");
  s.count = f.Uint("count");
  s.p95 = f.Uint("p95");
  s.p99_ci_low = f.Uint("p99_ci_low");
  s.p99_ci_high = f.Uint("p99_ci_high");
  return s;
}

}  // namespace durprobe::report
