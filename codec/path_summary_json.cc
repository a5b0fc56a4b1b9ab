#include "codec/path_summary_json.h"

namespace durprobe::codec {
namespace {

using nlohmann::json;

json Maybe(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json SettingJson(const std::optional<model::SummarySetting>& s) {
  if (!s) return nullptr;
  return {{"label", s->label},
          {"commits_per_sec", s->commits_per_sec},
          {"vs_default", Maybe(s->vs_default)},
          {"risk", NameOf(s->risk)},
          {"loses", s->loses}};
}

std::optional<model::SummarySetting> ReadSetting(const JsonFields& sqlite, const char* key) {
  if (!sqlite.Has(key)) return std::nullopt;
  JsonFields f = sqlite.Object(key);
  model::SummarySetting s;
  s.label = f.String("label", Need::kRequired);
  s.commits_per_sec = f.Double("commits_per_sec");
  s.vs_default = f.OptionalDouble("vs_default");
  s.risk = f.Enum("risk", sqlite_bench::RiskLevel::kNone);
  s.loses = f.String("loses");
  return s;
}

}  // namespace

json ToJson(const model::PathSummary& s) {
  json j = {{"what", s.what},
            {"durability", s.durability ? json(NameOf(*s.durability)) : json(nullptr)},
            {"durability_line", s.durability_line},
            {"sync",
             {{"probe", s.sync_probe.empty() ? json(nullptr) : json(s.sync_probe)},
              {"p50_ns", Maybe(s.sync_p50_ns)},
              {"p99_ns", Maybe(s.sync_p99_ns)},
              {"synced_writes_per_sec", Maybe(s.synced_writes_per_sec)}}},
            {"sqlite",
             {{"default", SettingJson(s.sqlite_default)},
              {"keeps_every_commit", SettingJson(s.sqlite_safe)},
              {"risks_last_commits", SettingJson(s.sqlite_fast)}}},
            {"findings", s.findings},
            {"next_step", s.next_step}};
  if (s.sync_slow_state) {
    j["sync"]["slow_state"] = {{"p50_ns", s.sync_slow_state->p50_ns},
                               {"p99_ns", Maybe(s.sync_slow_state->p99_ns)},
                               {"time_share", s.sync_slow_state->time_share}};
  }
  if (s.sync_fast_state) {
    j["sync"]["fast_state"] = {{"p50_ns", s.sync_fast_state->p50_ns},
                               {"p99_ns", Maybe(s.sync_fast_state->p99_ns)},
                               {"time_share", s.sync_fast_state->time_share}};
  }
  return j;
}

json ToJson(const std::vector<model::PathAdvice>& advice) {
  json out = json::array();
  for (const model::PathAdvice& a : advice) {
    out.push_back(
        {{"system", a.system}, {"setting", a.setting}, {"why", a.why}, {"evidence", a.evidence}});
  }
  return out;
}

std::optional<model::PathSummary> ReadPathSummary(const JsonFields& target) {
  if (!target.Has("summary")) return std::nullopt;
  JsonFields f = target.Object("summary");
  model::PathSummary s;
  s.what = f.String("what");
  s.durability = f.OptionalEnum<model::DurabilityVerdict>("durability");
  s.durability_line = f.String("durability_line");
  JsonFields sync = f.Object("sync");
  s.sync_probe = sync.String("probe");
  s.sync_p50_ns = sync.OptionalDouble("p50_ns");
  s.sync_p99_ns = sync.OptionalDouble("p99_ns");
  s.synced_writes_per_sec = sync.OptionalDouble("synced_writes_per_sec");
  if (sync.Has("slow_state")) {
    JsonFields slow = sync.Object("slow_state");
    s.sync_slow_state = model::PathSummary::SlowState{
        slow.Double("p50_ns"), slow.OptionalDouble("p99_ns"), slow.Double("time_share")};
  }
  if (sync.Has("fast_state")) {
    JsonFields fast = sync.Object("fast_state");
    s.sync_fast_state = model::PathSummary::SlowState{
        fast.Double("p50_ns"), fast.OptionalDouble("p99_ns"), fast.Double("time_share")};
  }
  JsonFields sqlite = f.Object("sqlite");
  s.sqlite_default = ReadSetting(sqlite, "default");
  s.sqlite_safe = ReadSetting(sqlite, "keeps_every_commit");
  s.sqlite_fast = ReadSetting(sqlite, "risks_last_commits");
  s.findings = f.Strings("findings");
  s.next_step = f.String("next_step");
  return s;
}

std::vector<model::PathAdvice> ReadAdvice(const JsonFields& target) {
  std::vector<model::PathAdvice> advice;
  target.Each("advice", Need::kOptional, [&](const JsonFields& a) {
    advice.push_back({a.String("system", Need::kRequired), a.String("setting", Need::kRequired),
                      a.String("why"), a.String("evidence")});
  });
  return advice;
}

}  // namespace durprobe::codec
