// What a policy holds (gate/rules.h Policy): whether it is empty, the probes and SQLite
// configurations its rules read, and two policies merged into one.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "gate/facts.h"
#include "gate/rules.h"
#include "gate/wal_sync_method.h"

namespace durprobe::gate {
namespace {

bool SameSpec(const probes::ProbeSpec& a, const probes::ProbeSpec& b) { return a == b; }

template <typename T>
void AddUnique(std::vector<T>& into, const T& value, bool (*same)(const T&, const T&)) {
  for (const T& v : into) {
    if (same(v, value)) return;
  }
  into.push_back(value);
}

bool SameConfig(const sqlite_bench::CommitConfig& a, const sqlite_bench::CommitConfig& b) {
  return a.journal == b.journal && a.sync == b.sync;
}

}  // namespace

bool Policy::empty() const {
  return latency.empty() && rates.empty() && slow_syncs.empty() && commits.empty() &&
         concurrency.empty() && fail_on_codes.empty() && !fail_on_severity && facts.empty() &&
         !recommend_wal_sync_method && !durable_rule;
}

bool Policy::HasDurableRule() const {
  return durable_rule || std::find(facts.begin(), facts.end(), Fact::kDurable) != facts.end();
}

std::vector<probes::ProbeSpec> Policy::ProbeSpecs() const {
  std::vector<probes::ProbeSpec> out;
  for (const LatencyRule& r : latency) AddUnique(out, r.spec, SameSpec);
  for (const RateRule& r : rates) AddUnique(out, r.spec, SameSpec);
  for (const SlowSyncRule& r : slow_syncs) AddUnique(out, r.spec, SameSpec);
  if (recommend_wal_sync_method) {
    for (const probes::ProbeSpec& s : WalSyncMethodSpecs()) AddUnique(out, s, SameSpec);
  }
  // The durability verdict's measured layer: a sync against a plain write of the same kind.
  if (HasDurableRule()) {
    for (const probes::ProbeSpec& s : DurableRuleSpecs()) AddUnique(out, s, SameSpec);
  }
  return out;
}

std::vector<sqlite_bench::CommitConfig> Policy::CommitConfigs() const {
  std::vector<sqlite_bench::CommitConfig> out;
  for (const CommitRule& r : commits) {
    sqlite_bench::CommitConfig config;
    config.journal = r.journal;
    config.sync = r.sync;
    AddUnique(out, config, SameConfig);
  }
  return out;
}

void Merge(Policy& policy, const Policy& other) {
  auto append = [](auto& into, const auto& from) {
    std::unordered_multimap<std::string, std::size_t> by_name;
    for (std::size_t i = 0; i < into.size(); ++i) by_name.emplace(into[i].name, i);
    for (const auto& rule : from) {
      auto [begin, end] = by_name.equal_range(rule.name);
      if (std::any_of(begin, end, [&](const auto& e) { return into[e.second] == rule; })) continue;
      by_name.emplace(rule.name, into.size());
      into.push_back(rule);
    }
  };
  append(policy.latency, other.latency);
  append(policy.rates, other.rates);
  append(policy.slow_syncs, other.slow_syncs);
  append(policy.commits, other.commits);
  append(policy.concurrency, other.concurrency);
  for (const std::string& code : other.fail_on_codes) {
    if (std::find(policy.fail_on_codes.begin(), policy.fail_on_codes.end(), code) ==
        policy.fail_on_codes.end()) {
      policy.fail_on_codes.push_back(code);
    }
  }
  for (Fact f : other.facts) {
    if (std::find(policy.facts.begin(), policy.facts.end(), f) == policy.facts.end()) {
      policy.facts.push_back(f);
    }
  }
  if (other.fail_on_severity &&
      (!policy.fail_on_severity || *other.fail_on_severity < *policy.fail_on_severity)) {
    policy.fail_on_severity = other.fail_on_severity;
  }
  policy.recommend_wal_sync_method |= other.recommend_wal_sync_method;
  policy.durable_rule |= other.durable_rule;
  policy.probe_file_size = std::max(policy.probe_file_size, other.probe_file_size);
  // One companion runs: the larger of two (a preset named twice keeps its own).
  if (other.companion_syncs_per_sec * static_cast<double>(other.companion_sync_bytes) >
      policy.companion_syncs_per_sec * static_cast<double>(policy.companion_sync_bytes)) {
    policy.companion_syncs_per_sec = other.companion_syncs_per_sec;
    policy.companion_sync_bytes = other.companion_sync_bytes;
  }
  if (!other.source.empty()) {
    policy.source += (policy.source.empty() ? "" : " + ") + other.source;
  }
}

}  // namespace durprobe::gate
