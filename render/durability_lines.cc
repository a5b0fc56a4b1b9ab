#include "render/durability_lines.h"

#include <fmt/format.h>

namespace durprobe::render {

DurabilityText DurabilityTextOf(const model::Durability& d) {
  DurabilityText t;
  switch (d.verdict) {
    case model::DurabilityVerdict::kDurable:
      t.headline = "durable: " + d.reason;
      break;
    case model::DurabilityVerdict::kNotDurable:
      t.headline = "NOT DURABLE: " + d.reason;
      break;
    case model::DurabilityVerdict::kUnproven:
      t.headline = "unproven: " + d.reason;
      break;
  }
  for (const model::DurabilityLayer& l : d.layers) {
    if (!t.chain.empty()) t.chain += " > ";
    t.chain += fmt::format("{} {} {}", NameOf(l.kind), l.name, NameOf(l.effect));
  }
  t.to_prove = d.to_prove;
  return t;
}

}  // namespace durprobe::render
