#include "codec/json_reader_sections.h"

#include <string_view>

#include "codec/repeats_json.h"

namespace durprobe::codec {

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

model::ProbeStates ReadProbeStates(const JsonFields& probe, std::size_t index) {
  model::ProbeStates ps{index, {}};
  probe.Each("states", Need::kOptional, [&](const JsonFields& x) {
    model::StateFigures s;
    s.state = x.Enum("state", model::DeviceState::kFast, Need::kRequired);
    s.time_share = x.Double("time_share");
    s.ops = x.Uint("ops");
    s.p50_ns = x.Uint("p50_ns");
    s.p99_ns = x.Uint("p99_ns");
    if (x.Has("repeats")) {
      s.p50_repeats =
          ReadRepeatSpread(x.Object("repeats").Object("p50_ns"), model::kLatencyResolution);
    }
    if (x.Has("sync")) {
      JsonFields sync = x.Object("sync");
      s.sync_ops = sync.Uint("ops");
      s.sync_p50_ns = sync.Uint("p50_ns");
      s.sync_p99_ns = sync.Uint("p99_ns");
    }
    ps.states.push_back(s);
  });
  return ps;
}

}  // namespace durprobe::codec
