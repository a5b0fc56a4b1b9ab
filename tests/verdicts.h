// Durability verdicts for report tests that build targets by hand: what the analysis
// (analysis/durability_model.h) would have decided for a path with that finding.
#pragma once

#include <string>

#include "model/report.h"

namespace durprobe::testing_support {

// Adds the fail finding code and the not_durable verdict it decides (in the layer given).
inline void MarkNotDurable(model::Target& t, const std::string& code,
                           model::LayerKind layer = model::LayerKind::kFilesystem) {
  t.findings.push_back({model::Severity::kFail, code, code + " voids durability here"});
  model::Durability d;
  d.verdict = model::DurabilityVerdict::kNotDurable;
  d.deciding_layer = layer;
  d.reason = std::string(NameOf(layer)) + ": " + code;
  d.findings = {code};
  t.durability = d;
}

}  // namespace durprobe::testing_support
