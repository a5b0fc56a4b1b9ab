// The rules about what a path is rather than how fast it syncs: required storage facts and
// findings that fail the check. Used by rules.cc.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "gate/rules.h"

namespace durprobe::gate {

std::string_view NameOf(Fact fact);  // "write_through_or_fua", ..., "durable"
const std::map<std::string, Fact>& FactNames();

// One result for a required fact; an error when the mount or device could not be identified.
model::CheckResult EvaluateFact(Fact fact, const model::Target& target);

// The probes the `durable` rule needs for its measured evidence: fdatasync overwrite 4 KiB and a
// plain write of the same kind (a sync that costs no more than the write does not reach media).
std::vector<probes::ProbeSpec> DurableRuleSpecs();

// The `durable` rule on one target, from its durability verdict: not_durable fails, durable
// passes, unproven passes with a warning unless facts hold Fact::kDurable (then it fails).
model::CheckResult EvaluateDurable(const model::Target& target, const std::vector<Fact>& facts);

// The `fsync_error_reported` fact: passes when, in every data experiment `durprobe faults` ran on
// the path (the check runs them when the fact is required), the sync after the failed write
// reported it; an error when none ran.
model::CheckResult EvaluateFsyncErrorReported(const model::Target& target);

// One result for fail_on_codes ("fail_on_findings": fails when the target has any of them) and
// one for fail_on_severity ("findings_warn": fails when any finding is at or above it).
std::vector<model::CheckResult> EvaluateFindings(const Policy& policy, const model::Target& target);

}  // namespace durprobe::gate
