// Key names are a contract: extend, never rename.
#include "render/json/causes_json.h"

#include "codec/report_json.h"

namespace durprobe::render::json {

nlohmann::json CausesJson(const std::vector<explain::Cause>& causes) {
  nlohmann::json out = nlohmann::json::array();
  for (const explain::Cause& c : causes) {
    nlohmann::json j{
        {"key", c.key},   {"score", c.score}, {"evidence", c.evidence},      {"advice", c.advice},
        {"what", c.what}, {"side", c.side},   {"differences", c.differences}};
    if (!c.trial.command.empty()) {
      // A test --try leaves to the user has the kind "".
      std::string_view kind = c.trial.kind ? NameOf(*c.trial.kind) : "";
      j["try"] = {{"kind", kind}, {"command", c.trial.command}};
      if (!c.trial.note.empty()) j["try"]["note"] = c.trial.note;
    }
    out.push_back(std::move(j));
  }
  return out;
}

nlohmann::json TriedJson(const explain::TrialResult& t) {
  nlohmann::json targets = nlohmann::json::array();
  for (const model::Target& target : t.targets) targets.push_back(codec::ToJson(target));
  nlohmann::json j{
      {"cause", t.cause}, {"command", t.command}, {"effect", t.effect}, {"targets", targets}};
  if (!t.instead_of.empty()) j["instead_of"] = t.instead_of;
  return j;
}

}  // namespace durprobe::render::json
