#include "codec/watch_json.h"

#include "analysis/watch_files.h"
#include "analysis/watch_sqlite.h"
#include "codec/report_json.h"

namespace durprobe::codec {
namespace {

using nlohmann::json;

template <typename T>
json OrNull(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json ToJson(const model::WatchLatency& l) {
  return {{"p50_ns", l.p50_ns},
          {"p50_ci95_ns", {l.p50_low_ns, l.p50_high_ns}},
          {"p99_ns", OrNull(l.p99_ns)},
          {"max_ns", l.max_ns}};
}

json ToJson(const model::WatchFile& f) {
  json calls = json::object();
  for (const auto& [name, count] : f.calls) calls[name] = count;
  return {{"pid", f.pid},
          {"comm", f.comm},
          {"path", f.path},
          {"kind", analysis::WatchFileKindName(f.kind)},
          {"syncs", f.syncs},
          {"failed", f.failed},
          {"calls", calls},
          {"syncs_per_second", f.syncs_per_second},
          {"latency", ToJson(f.latency)},
          {"bytes_synced", f.bytes},
          {"bytes_per_sync", f.bytes_per_sync},
          {"unsynced_bytes", f.unsynced_bytes},
          {"devices", f.devices}};
}

json ToJson(const model::WatchDeviceRow& d) {
  return {{"name", d.device.name},
          {"flushes", d.device.flushes},
          {"writes", d.device.writes},
          {"syncs", d.syncs},
          {"flushes_per_sync", OrNull(d.flushes_per_sync)}};
}

json ToJson(const model::WatchSqlite& s) {
  return {{"pid", s.pid},
          {"database", s.database},
          {"journal_mode", analysis::SqliteJournalSeenName(s.journal_mode)},
          {"synchronous", analysis::SqliteSyncSeenName(s.synchronous)},
          {"durable", s.durable},
          {"transactions", OrNull(s.transactions)},
          {"transactions_per_second", OrNull(s.transactions_per_second)},
          {"syncs_per_transaction", OrNull(s.syncs_per_transaction)},
          {"bytes_per_transaction", OrNull(s.database_bytes_per_transaction)},
          {"small_transactions", s.small_transactions},
          {"evidence", s.evidence}};
}

}  // namespace

json ToJson(const model::WatchReport& r) {
  json files = json::array();
  for (const model::WatchFile& f : r.files) files.push_back(ToJson(f));
  json devices = json::array();
  for (const model::WatchDeviceRow& d : r.devices) devices.push_back(ToJson(d));
  json sqlite = json::array();
  for (const model::WatchSqlite& s : r.sqlite) sqlite.push_back(ToJson(s));
  return {{"schema", model::kWatchSchema},
          {"context", ToJson(r.context)},
          {"window",
           {{"seconds", r.seconds},
            {"pids", r.pids},
            {"comm", r.comm},
            {"path", r.path},
            {"syncs", r.syncs},
            {"lost_records", r.lost},
            {"unobserved", r.unobserved}}},
          {"files", files},
          {"devices", devices},
          {"sqlite", sqlite}};
}

}  // namespace durprobe::codec
