// Key names are a contract: extend, never rename.
#include "render/json/diff_json.h"

#include "render/json/causes_json.h"
#include "text/utf8.h"

namespace durprobe::render::json {
namespace {

using nlohmann::json;

json ConfigJson(const explain::ConfigDiff& c) {
  return {{"journal_mode", c.journal_mode},
          {"synchronous", c.synchronous},
          {"rows_per_commit", c.rows_per_commit},
          {"statement", c.statement},
          {"payload_bytes", c.payload_bytes},
          {"commits_per_sec_a", c.commits_per_sec_a},
          {"commits_per_sec_b", c.commits_per_sec_b},
          {"commit_ns_a", c.commit_ns_a},
          {"commit_ns_b", c.commit_ns_b},
          {"syncs_per_commit_a", c.syncs_a},
          {"syncs_per_commit_b", c.syncs_b},
          {"sync_ns_a", c.sync_ns_a},
          {"sync_ns_b", c.sync_ns_b},
          {"non_sync_ns_a", c.non_sync_ns_a},
          {"non_sync_ns_b", c.non_sync_ns_b},
          {"shares",
           {{"sync_latency", c.share_sync_latency},
            {"sync_count", c.share_sync_count},
            {"non_sync", c.share_non_sync}}}};
}

json ProbeJson(const explain::ProbeDiff& p) {
  json j{{"primitive", p.primitive},
         {"pattern", p.pattern},
         {"write_size", p.write_size},
         {"p50_ns_a", p.p50_a},
         {"p50_ns_b", p.p50_b},
         {"mean_ns_a", p.mean_a},
         {"mean_ns_b", p.mean_b},
         {"sync_ns_a", p.sync_a},
         {"sync_ns_b", p.sync_b},
         {"shares", {{"sync", p.share_sync}, {"non_sync", p.share_non_sync}}}};
  if (p.writes_per_op != 1) j["writes_per_op"] = p.writes_per_op;
  return j;
}

json Differences(const std::vector<explain::Difference>& list) {
  json out = json::array();
  for (const explain::Difference& x : list) out.push_back({{"key", x.key}, {"a", x.a}, {"b", x.b}});
  return out;
}

json ConcurrencyJson(const std::vector<explain::ConcurrencyDiff>& rows) {
  json out = json::array();
  for (const explain::ConcurrencyDiff& c : rows) {
    out.push_back({{"writers", c.spec.writers},
                   {"mode", probes::NameOf(c.spec.mode)},
                   {"primitive", probes::NameOf(c.spec.primitive)},
                   {"write_size", c.spec.write_size},
                   {"aggregate_ops_per_sec_a", c.aggregate_a},
                   {"aggregate_ops_per_sec_b", c.aggregate_b},
                   {"p50_ns_a", c.p50_a},
                   {"p50_ns_b", c.p50_b}});
  }
  return out;
}

json VerdictJson(const explain::DiffVerdict& v) {
  return {{"factor", NameOf(v.factor)}, {"message", v.message}};
}

}  // namespace

json ToJson(const explain::Diff& d) {
  json configs = json::array(), pairs = json::array();
  for (const explain::ConfigDiff& c : d.configs) configs.push_back(ConfigJson(c));
  for (const explain::PairDiff& p : d.pairs) {
    json pair_configs = json::array(), probes = json::array();
    for (const explain::ConfigDiff& c : p.configs) pair_configs.push_back(ConfigJson(c));
    for (const explain::ProbeDiff& x : p.probes) probes.push_back(ProbeJson(x));
    pairs.push_back({{"a_path", p.a_path},
                     {"b_path", p.b_path},
                     {"configs", pair_configs},
                     {"probes", probes},
                     {"differences", Differences(p.differences)},
                     {"causes", CausesJson(p.causes)},
                     {"verdict", VerdictJson(p.verdict)}});
    if (!p.concurrency.empty()) pairs.back()["concurrency"] = ConcurrencyJson(p.concurrency);
  }
  json j{{"schema", explain::kDiffSchema},
         {"configs", configs},
         {"pairs", pairs},
         {"differences", Differences(d.differences)},
         {"warnings", d.warnings},
         {"verdict", VerdictJson(d.verdict)},
         {"causes", CausesJson(d.causes)}};
  text::PutPath(j, "a", d.a_name);
  text::PutPath(j, "b", d.b_name);
  text::MakeValidUtf8(j);  // differences quote report values, which can be paths
  return j;
}

}  // namespace durprobe::render::json
