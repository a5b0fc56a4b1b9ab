// What a policy holds (gate/rules.h Policy): whether it is empty, and the probes and SQLite
// configurations its rules read.
#include <algorithm>
#include <string>
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


}  // namespace durprobe::gate
