#include "codec/durability_json.h"

#include "codec/json_reader_sections.h"

namespace durprobe::report {

using nlohmann::json;

json ToJson(const Durability& d) {
  json layers = json::array();
  for (const DurabilityLayer& l : d.layers) {
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

Durability ReadDurability(const JsonFields& f) {
  Durability d;
  d.verdict = f.Enum("verdict", DurabilityVerdict::kUnproven, Need::kRequired);
  d.deciding_layer = f.OptionalEnum<LayerKind>("deciding_layer");
  d.reason = f.String("reason");
  d.to_prove = f.String("to_prove");
  d.findings = f.Strings("findings");
  f.Each("layers", Need::kOptional, [&](const JsonFields& l) {
    d.layers.push_back({l.Enum("kind", LayerKind::kFilesystem, Need::kRequired), l.String("name"),
                        l.Enum("effect", LayerEffect::kUnknown, Need::kRequired),
                        l.String("reason")});
  });
  return d;
}

}  // namespace durprobe::report
