#include "codec/flush_json.h"

#include <cmath>

namespace durprobe::codec {

using nlohmann::json;

namespace {

json Rounded(double v) { return std::round(v * 1000.0) / 1000.0; }

}  // namespace

json ToJson(const probes::FlushTally& t) {
  json devices = json::array();
  for (const probes::DeviceFlushes& d : t.devices) {
    devices.push_back({{"name", d.name},
                       {"flushes", d.flushes},
                       {"writes", d.writes},
                       {"control_flushes", d.control_flushes},
                       {"idle_flushes", d.idle_flushes},
                       {"per_op", Rounded(t.PerOp(d))},
                       {"background_per_sec", Rounded(t.BackgroundPerSec(d))}});
  }
  json j{{"status", t.ok() ? "ok" : "unavailable"},
         {"reason", t.unavailable.empty() ? json(nullptr) : json(t.unavailable)},
         {"devices", devices},
         {"how", t.how.empty() ? json(nullptr) : json(t.how)},
         {"ops", t.ops},
         {"timed_ns", t.ns},
         {"control_ops", t.control_ops},
         {"control_ns", t.control_ns},
         {"idle_ns", t.idle_ns},
         {"silent_slices", t.silent_slices},
         {"silent_ops", t.silent_ops},
         {"per_op", t.ok() ? json(Rounded(t.PerOp())) : json(nullptr)},
         {"without_sync_per_op", t.ok() ? json(Rounded(t.MostWithoutSyncPerOp())) : json(nullptr)},
         {"control_per_write",
          t.ok() && t.control_ops > 0 ? json(Rounded(t.ControlPerWrite())) : json(nullptr)}};
  if (!t.control_note.empty()) j["control_note"] = t.control_note;
  return j;
}

probes::FlushTally ReadFlushTally(const JsonFields& f) {
  probes::FlushTally t;
  if (!f.present()) return t;
  t.counted = true;
  t.unavailable = f.String("reason");
  if (f.String("status") == "unavailable" && t.unavailable.empty()) {
    t.unavailable = "unavailable (no reason given)";
  }
  t.how = f.String("how");
  t.control_note = f.String("control_note");
  f.Each("devices", Need::kOptional, [&](const JsonFields& d) {
    t.devices.push_back({.name = d.String("name", Need::kRequired),
                         .flushes = d.Uint("flushes"),
                         .writes = d.Uint("writes"),
                         .control_flushes = d.Uint("control_flushes"),
                         .idle_flushes = d.Uint("idle_flushes")});
  });
  t.ops = f.Uint("ops");
  t.ns = f.Uint("timed_ns");
  t.control_ops = f.Uint("control_ops");
  t.control_ns = f.Uint("control_ns");
  t.idle_ns = f.Uint("idle_ns");
  t.silent_slices = f.Uint("silent_slices");
  t.silent_ops = f.Uint("silent_ops");
  return t;
}

}  // namespace durprobe::codec
