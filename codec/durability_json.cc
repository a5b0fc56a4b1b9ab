#include "codec/durability_json.h"

#include "codec/json_reader_sections.h"

namespace durprobe::codec {

using nlohmann::json;

json ToJson(const model::Durability& d) {
  json layers = json::array();
  for (const model::DurabilityLayer& l : d.layers) {
    layers.push_back({{"kind", NameOf(l.kind)},
                      {"name", l.name},
                      {"effect", NameOf(l.effect)},
                      {"reason", l.reason}});
  }
  json j{{"verdict", NameOf(d.verdict)},
         {"deciding_layer", d.deciding_layer ? json(NameOf(*d.deciding_layer)) : json(nullptr)},
         {"reason", d.reason},
         {"layers", layers},
         {"findings", d.findings}};
  if (!d.to_prove.empty()) j["to_prove"] = d.to_prove;
  return j;
}

model::Durability ReadDurability(const JsonFields& f) {
  model::Durability d;
  d.verdict = f.Enum("verdict", model::DurabilityVerdict::kUnproven, Need::kRequired);
  d.deciding_layer = f.OptionalEnum<model::LayerKind>("deciding_layer");
  d.reason = f.String("reason");
  d.to_prove = f.String("to_prove");
  d.findings = f.Strings("findings");
  f.Each("layers", Need::kOptional, [&](const JsonFields& l) {
    d.layers.push_back(
        {l.Enum("kind", model::LayerKind::kFilesystem, Need::kRequired), l.String("name"),
         l.Enum("effect", model::LayerEffect::kUnknown, Need::kRequired), l.String("reason")});
  });
  return d;
}

}  // namespace durprobe::codec
