#include "codec/concurrency_json_reader.h"

#include "codec/flush_json.h"
#include "codec/json_reader_sections.h"

namespace durprobe::codec {

std::vector<probes::ConcurrencyResult> ReadConcurrency(const JsonFields& target) {
  std::vector<probes::ConcurrencyResult> rows;
  target.Each("concurrency", Need::kOptional, [&](const JsonFields& f) {
    probes::ConcurrencyResult r;
    r.spec.writers = static_cast<std::uint32_t>(f.Uint("writers", Need::kRequired));
    r.spec.mode = f.Enum("mode", probes::WriterModeNames(), r.spec.mode, Need::kRequired);
    r.spec.primitive =
        f.Enum("primitive", probes::PrimitiveNames(), r.spec.primitive, Need::kRequired);
    r.spec.write_size = f.Uint("write_size");
    r.outcome = ReadOutcome(f);
    r.reason = f.String("reason");
    r.ops = f.Uint("ops");
    r.seconds = f.Double("seconds");
    r.latency = ReadLatency(f.Object("latency_ns"));
    r.aggregate_ops_per_sec = f.Double("aggregate_ops_per_sec");
    r.scaling = f.Double("scaling");
    r.device_flushes = ReadFlushTally(f.Object("device_flushes"));
    rows.push_back(std::move(r));
  });
  return rows;
}

std::optional<model::SerialVsConcurrent> ReadSerialVsConcurrent(const JsonFields& target) {
  if (!target.Has("serial_vs_concurrent")) return std::nullopt;
  JsonFields f = target.Object("serial_vs_concurrent");
  model::SerialVsConcurrent s;
  JsonFields c = f.Object("concurrent");
  probes::QueueDepthResult& q = s.concurrent;
  q.queue_depth = static_cast<std::uint32_t>(c.Uint("queue_depth"));
  q.write_size = c.Uint("write_size");
  q.engine = c.String("engine");
  q.outcome = ReadOutcome(c);
  q.reason = c.String("reason");
  q.ops = c.Uint("ops");
  q.seconds = c.Double("seconds");
  q.ops_per_sec = c.Double("ops_per_sec");
  q.latency = ReadLatency(c.Object("latency_ns"));
  JsonFields serial = f.Object("serial");
  s.serial_label = serial.String("probe");
  s.serial_ops_per_sec = serial.Double("ops_per_sec");
  s.ratio = f.Double("ratio");
  return s;
}

}  // namespace durprobe::codec
