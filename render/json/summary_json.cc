#include "render/json/summary_json.h"

namespace durprobe::render::json {

using nlohmann::json;

json SummaryJson(const std::vector<explain::SummaryRow>& rows) {
  json out = json::array();
  auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  for (const explain::SummaryRow& r : rows) {
    out.push_back(
        {{"host", r.host},
         {"path", r.path},
         {"fstype", r.fstype},
         {"device", r.device},
         {"sync_probe", r.sync_probe},
         {"sync_p50_ns", opt(r.sync_p50_ns)},
         {"sync_p99_ns", opt(r.sync_p99_ns)},
         {"commits_wal_full", opt(r.commits_wal_full)},
         {"commits_delete_full", opt(r.commits_delete_full)},
         {"failed_rules", r.failed_rules},
         {"findings", r.findings},
         {"durability", r.durability ? nlohmann::json(NameOf(*r.durability)) : nlohmann::json()},
         {"started_at", r.started_at},
         {"file", r.file}});
  }
  return json{{"schema", "durprobe.summary/1"}, {"rows", out}};
}

}  // namespace durprobe::render::json
