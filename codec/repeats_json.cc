#include "codec/repeats_json.h"

namespace durprobe::codec {

using nlohmann::json;

// null for a figure no repeat measured (a p99 that no repeat's operations support).
json ToJson(const model::RepeatSpread& s) {
  if (s.n == 0) return nullptr;
  json out = {{"median", s.median}, {"min", s.min}, {"max", s.max}, {"n", s.n}};
  if (Predicted(s)) out["next_run"] = {{"low", s.next_low}, {"high", s.next_high}};
  return out;
}

model::RepeatSpread ReadRepeatSpread(const JsonFields& f, double relative_resolution) {
  if (!f.present()) return {};
  model::RepeatSpread s{f.Double("median", Need::kRequired), f.Double("min", Need::kRequired),
                        f.Double("max", Need::kRequired),
                        static_cast<std::uint32_t>(f.Uint("n", Need::kRequired))};
  if (JsonFields next = f.Object("next_run"); next.present()) {
    s.next_low = next.Double("low", Need::kRequired);
    s.next_high = next.Double("high", Need::kRequired);
  } else if (s.n == 3) {
    s = model::SpreadOf({s.min, s.median, s.max}, relative_resolution);
  }
  return s;
}

json ToJson(const model::ProbeRepeats& r) {
  return {{"p50_ns", ToJson(r.p50_ns)},
          {"p99_ns", ToJson(r.p99_ns)},
          {"ops_per_sec", ToJson(r.ops_per_sec)}};
}

json ToJson(const model::SqliteRepeats& r) {
  return {{"commits_per_sec", ToJson(r.commits_per_sec)},
          {"p50_ns", ToJson(r.p50_ns)},
          {"p99_ns", ToJson(r.p99_ns)}};
}

model::ProbeRepeats ReadProbeRepeats(const JsonFields& f, std::size_t probe) {
  return {.probe = probe,
          .p50_ns = ReadRepeatSpread(f.Object("p50_ns"), model::kLatencyResolution),
          .p99_ns = ReadRepeatSpread(f.Object("p99_ns"), model::kLatencyResolution),
          .ops_per_sec = ReadRepeatSpread(f.Object("ops_per_sec"), 0.0)};
}

model::SqliteRepeats ReadSqliteRepeats(const JsonFields& f) {
  return {.commits_per_sec = ReadRepeatSpread(f.Object("commits_per_sec"), 0.0),
          .p50_ns = ReadRepeatSpread(f.Object("p50_ns"), model::kLatencyResolution),
          .p99_ns = ReadRepeatSpread(f.Object("p99_ns"), model::kLatencyResolution)};
}

}  // namespace durprobe::codec
