#include "codec/repeats_json.h"

namespace durprobe::report {

using nlohmann::json;

// null for a figure no repeat measured (a p99 that no repeat's operations support).
json ToJson(const RepeatSpread& s) {
  if (s.n == 0) return nullptr;
  return {{"median", s.median}, {"min", s.min}, {"max", s.max}, {"n", s.n}};
}

RepeatSpread ReadRepeatSpread(const JsonFields& f) {
  if (!f.present()) return {};
  return {f.Double("median", Need::kRequired), f.Double("min", Need::kRequired),
          f.Double("max", Need::kRequired),
          static_cast<std::uint32_t>(f.Uint("n", Need::kRequired))};
}

json ToJson(const ProbeRepeats& r) {
  return {{"p50_ns", ToJson(r.p50_ns)},
          {"p99_ns", ToJson(r.p99_ns)},
          {"ops_per_sec", ToJson(r.ops_per_sec)}};
}

json ToJson(const SqliteRepeats& r) {
  return {{"commits_per_sec", ToJson(r.commits_per_sec)},
          {"p50_ns", ToJson(r.p50_ns)},
          {"p99_ns", ToJson(r.p99_ns)}};
}

ProbeRepeats ReadProbeRepeats(const JsonFields& f, std::size_t probe) {
  return {.probe = probe,
          .p50_ns = ReadRepeatSpread(f.Object("p50_ns")),
          .p99_ns = ReadRepeatSpread(f.Object("p99_ns")),
          .ops_per_sec = ReadRepeatSpread(f.Object("ops_per_sec"))};
}

SqliteRepeats ReadSqliteRepeats(const JsonFields& f) {
  return {.commits_per_sec = ReadRepeatSpread(f.Object("commits_per_sec")),
          .p50_ns = ReadRepeatSpread(f.Object("p50_ns")),
          .p99_ns = ReadRepeatSpread(f.Object("p99_ns"))};
}

}  // namespace durprobe::report
