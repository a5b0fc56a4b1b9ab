#include "render/json/compare_json.h"

#include "codec/report_json.h"
#include "render/json/causes_json.h"
#include "text/utf8.h"

namespace durprobe::render::json {

nlohmann::json ToJson(const explain::Comparison& c) {
  std::vector<std::string> paths;
  nlohmann::json targets = nlohmann::json::array();
  for (const model::Target& t : c.targets) {
    paths.push_back(t.path);
    targets.push_back(codec::ToJson(t));
  }
  nlohmann::json verdicts = nlohmann::json::array();
  for (const explain::Verdict& v : c.verdicts) {
    nlohmann::json verdict{{"dominant", NameOf(v.dominant)},
                           {"ratio", v.ratio},
                           {"message", v.message},
                           {"ratios",
                            {{"per_sync", v.per_sync_ratio},
                             {"per_op", v.per_op_ratio},
                             {"metadata", v.metadata_ratio}}}};
    nlohmann::json bounds = nlohmann::json::object();
    for (const auto& [name, b] :
         {std::pair{"per_sync", v.per_sync_bounds}, std::pair{"per_op", v.per_op_bounds},
          std::pair{"metadata", v.metadata_bounds}}) {
      bounds[name] = b ? nlohmann::json::array({b->low, b->high}) : nlohmann::json(nullptr);
    }
    verdict["ratio_bounds"] = bounds;
    verdict["not_durable"] = v.not_durable;
    verdict["states"] = nlohmann::json::array();
    for (const explain::StateRatio& r : v.states) {
      verdict["states"].push_back({{"state", NameOf(r.state)},
                                   {"probe", r.probe},
                                   {"p50_ns", r.here_ns},
                                   {"first_p50_ns", r.base_ns},
                                   {"time_share", r.here_share},
                                   {"first_time_share", r.base_share},
                                   {"ratio", r.ratio}});
    }
    verdict["causes"] = CausesJson(v.causes);
    verdict["differences"] = nlohmann::json::array();
    for (const explain::Difference& x : v.differences) {
      verdict["differences"].push_back({{"key", x.key}, {"a", x.a}, {"b", x.b}});
    }
    text::PutPath(verdict, "path", v.path);
    verdicts.push_back(std::move(verdict));
  }
  nlohmann::json j{{"schema", explain::kCompareSchema},
                   {"context", codec::ToJson(c.context)},
                   {"targets", targets},
                   {"verdicts", verdicts}};
  if (c.tried) j["tried"] = TriedJson(*c.tried);
  text::PutPaths(j, "paths", paths);
  text::MakeValidUtf8(j);
  return j;
}

}  // namespace durprobe::render::json
