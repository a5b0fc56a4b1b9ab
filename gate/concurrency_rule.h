// Check rules on concurrent syncers (gate/rules.h ConcurrencyRule): the policy key
// `[[concurrency]]` and the rule's evaluation against a target's concurrency rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gate/policy_reader.h"
#include "gate/rules.h"

namespace durprobe::gate {

// One `[[concurrency]]` table: writers (default 8), mode (default processes), primitive and size
// (as the probe rules'), name, and min_scaling and/or min_ops (each its own rule).
Status ReadConcurrencyRule(const DocumentReader& r, const PolicyValue& v, const std::string& key,
                           Policy& p);

// The writer counts (1 among them) and modes the policy's concurrency rules read, and the
// primitive and write size they share; InvalidArgument when two rules differ in primitive or
// size (one check runs one concurrency primitive). Empty writers: no concurrency rule.
struct ConcurrencyNeeds {
  std::vector<std::uint32_t> writers;
  std::vector<probes::WriterMode> modes;
  probes::Primitive primitive = probes::Primitive::kFdatasync;
  std::uint64_t write_size = 4096;
};
Result<ConcurrencyNeeds> NeedsOf(const std::vector<ConcurrencyRule>& rules);

model::CheckResult EvaluateConcurrency(const ConcurrencyRule& rule, const model::Target& t);

}  // namespace durprobe::gate
