#include "codec/concurrency_json.h"

#include "codec/flush_json.h"
#include "codec/report_json.h"

namespace durprobe::codec {

using nlohmann::json;

json ToJson(const probes::ConcurrencyResult& r) {
  json j{{"writers", r.spec.writers},
         {"mode", probes::NameOf(r.spec.mode)},
         {"primitive", probes::NameOf(r.spec.primitive)},
         {"write_size", r.spec.write_size},
         {"status", probes::NameOf(r.outcome)}};
  if (!r.reason.empty()) j["reason"] = r.reason;
  if (r.outcome == probes::Outcome::kUnsupported) return j;
  j["ops"] = r.ops;
  j["seconds"] = r.seconds;
  j["latency_ns"] = ToJson(r.latency);
  j["aggregate_ops_per_sec"] = r.aggregate_ops_per_sec;
  j["scaling"] = r.scaling > 0 ? json(r.scaling) : json(nullptr);
  if (r.device_flushes.counted) j["device_flushes"] = ToJson(r.device_flushes);
  return j;
}

json ToJson(const std::vector<probes::ConcurrencyResult>& results) {
  json rows = json::array();
  for (const probes::ConcurrencyResult& r : results) rows.push_back(ToJson(r));
  return rows;
}

json ToJson(const model::SerialVsConcurrent& s) {
  const probes::QueueDepthResult& q = s.concurrent;
  json concurrent{{"queue_depth", q.queue_depth},
                  {"write_size", q.write_size},
                  {"engine", q.engine},
                  {"status", probes::NameOf(q.outcome)}};
  if (!q.reason.empty()) concurrent["reason"] = q.reason;
  if (q.outcome != probes::Outcome::kUnsupported) {
    concurrent["ops"] = q.ops;
    concurrent["seconds"] = q.seconds;
    concurrent["ops_per_sec"] = q.ops_per_sec;
    concurrent["latency_ns"] = ToJson(q.latency);
  }
  json j{{"concurrent", concurrent},
         {"serial", {{"probe", s.serial_label}, {"ops_per_sec", s.serial_ops_per_sec}}}};
  j["ratio"] = s.ratio > 0 ? json(s.ratio) : json(nullptr);
  return j;
}

}  // namespace durprobe::codec
