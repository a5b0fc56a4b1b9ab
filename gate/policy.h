// Policies for `durprobe check`: the rule flags and policy files (TOML or JSON); the presets are
// in gate/presets.h.
// Every error is one line naming the file, line and key, so the CLI can print it as is and exit 2.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gate/rules.h"
#include "platform/status.h"

namespace durprobe::gate {

// "10ms" (fdatasync overwrite 4 KiB) or "PRIMITIVE:PATTERN:SIZE=10ms", for --max-sync-p50/p99.
Result<LatencyRule> ParseLatencyFlag(std::string_view text, LatencyStat stat);
// "WAL:FULL>=500" or "WAL:FULL=500", for --min-commits.
Result<CommitRule> ParseCommitFlag(std::string_view text);
// Finding codes and at most one severity ("info", "warn", "fail"), for --fail-on.
Status ParseFailOn(const std::vector<std::string>& items, Policy& policy);
// Fact names, for --require.
Status ParseRequire(const std::vector<std::string>& items, Policy& policy);

// A policy document. format is "toml" or "json"; file names the document in errors.
Result<Policy> ParsePolicy(std::string_view text, std::string_view format, const std::string& file);

// InvalidArgument when two rules share a name (presets, files and flags together): each names a
// JUnit test case and a Prometheus series.
Status UniqueRuleNames(const Policy& policy);

}  // namespace durprobe::gate
