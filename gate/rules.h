// The rules `durprobe check` applies, and their evaluation against a report. Pure: a Policy and
// a Report in, CheckResults out. A rule whose measurement is missing or failed is an error, never
// a pass; a rule whose primitive is unsupported on this platform is skipped, with the reason.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/report.h"
#include "probes/concurrency.h"
#include "probes/probe_spec.h"
#include "sqlite_bench/commit_spec.h"

namespace durprobe::gate {

enum class LatencyStat { kP50, kP99 };

// The sync latency of one probe (the sync call alone where it is separate from the write, else
// the whole synced write) must stay below max_ns: a limit is exclusive, so etcd's "10 ms or
// more fails" reads max 10ms.
struct LatencyRule {
  std::string name;
  probes::ProbeSpec spec;
  LatencyStat stat = LatencyStat::kP99;
  std::uint64_t max_ns = 0;
  std::uint64_t severe_ns = 0;  // 0: none; above it the failure is called severe
  std::string severe_why;       // what happens above severe_ns
  bool operator==(const LatencyRule&) const = default;
};

// Synced operations per second of one probe must reach min_ops_per_sec (OpenShift's floor).
struct RateRule {
  std::string name;
  probes::ProbeSpec spec;
  double min_ops_per_sec = 0.0;
  bool operator==(const RateRule&) const = default;
};

// At most max_count syncs of one probe may take over_ns or longer (etcd's "slow fdatasync").
struct SlowSyncRule {
  std::string name;
  probes::ProbeSpec spec;
  std::uint64_t over_ns = 0;
  std::uint64_t max_count = 0;
  bool operator==(const SlowSyncRule&) const = default;
};

// Single-row commits per second of a SQLite configuration must reach min_commits_per_sec.
struct CommitRule {
  std::string name;
  sqlite_bench::JournalMode journal = sqlite_bench::JournalMode::kWal;
  sqlite_bench::Synchronous sync = sqlite_bench::Synchronous::kFull;
  double min_commits_per_sec = 0.0;
  bool operator==(const CommitRule&) const = default;
};

// A concurrency row (targets[].concurrency[]) must reach a floor: its scaling against one writer
// (kScaling, "x"), or its aggregate synced operations per second (kAggregate, "ops/s").
// gate/concurrency_rule.h reads and evaluates it.
struct ConcurrencyRule {
  enum class Measure { kScaling, kAggregate };
  std::string name;
  probes::ConcurrencySpec spec{.writers = 8, .mode = probes::WriterMode::kProcesses};
  Measure measure = Measure::kScaling;
  double min = 0.0;
  bool operator==(const ConcurrencyRule&) const = default;
};

// Facts about the storage a path must have.
enum class Fact {
  kWriteThroughOrFua,  // the device has no volatile write cache, or accepts FUA writes
  kNotNetworkFs,
  kNotOverlay,  // not an overlay filesystem (a container's writable layer)
  kDurable,     // the durability verdict is `durable`: an unproven path fails too
  // On the crash device made like the path's filesystem, the first sync after a failed data
  // write reports it (durprobe faults runs with the check; root, /dev/fuse, loop devices)
  kFsyncErrorReported,
};

struct Policy {
  std::string source;  // "preset etcd", "policy.toml", "command line"
  std::vector<LatencyRule> latency;
  std::vector<RateRule> rates;
  std::vector<SlowSyncRule> slow_syncs;
  std::vector<CommitRule> commits;
  std::vector<ConcurrencyRule> concurrency;
  std::vector<std::string> fail_on_codes;    // a finding with one of these codes fails
  std::optional<model::Severity> fail_on_severity;  // a finding at or above this severity fails
  std::vector<Fact> facts;
  // The `durable` rule (every preset has it): a not_durable path fails; an unproven one passes
  // with a warning, unless facts hold kDurable (require = ["durable"]), which fails it too.
  bool durable_rule = false;
  // postgres-wal: pick the wal_sync_method that wins among the 8 KiB probes, with its margin.
  bool recommend_wal_sync_method = false;
  // Size of the file the probes write through, when the workload needs one (etcd's WAL: a
  // 64 MB segment); 0 keeps the probes' default.
  std::uint64_t probe_file_size = 0;
  // What else the workload syncs on the same disk while its probes run (etcd: bbolt's backend
  // commits beside the WAL): companion_sync_bytes written, then fdatasync, this many times a
  // second, on a thread of check's background load. 0: nothing runs beside the probes.
  double companion_syncs_per_sec = 0.0;
  std::uint64_t companion_sync_bytes = 0;

  bool empty() const;
  // Every probe and SQLite configuration the rules read, without duplicates, in rule order.
  std::vector<probes::ProbeSpec> ProbeSpecs() const;
  std::vector<sqlite_bench::CommitConfig> CommitConfigs() const;
  bool NeedsInspect() const {
    return !facts.empty() || !fail_on_codes.empty() || fail_on_severity || durable_rule;
  }
  bool HasDurableRule() const;  // durable_rule, or kDurable among the facts
};

// Adds other's rules to policy (presets combine with rule flags). A rule equal to one policy has
// (the same preset from a file and a flag) is kept once; two different rules of one name are
// both kept, for UniqueRuleNames to refuse.
void Merge(Policy& policy, const Policy& other);

// One result per rule and target, in rule order, targets in report order.
std::vector<model::CheckResult> EvaluatePolicy(const Policy& policy, const model::Report& report);

// An interrupted check's results: every rule that did not fail becomes an error ("interrupted by
// SIGTERM before the check finished"), so no output (exit code, JUnit, Prometheus) reads a check
// that did not run to its end as a pass. A failure measured before the signal stays a failure.
// A path of paths with no result (the signal came before it was reached) gets an error result
// of its own, rule "check_finished", so a JUnit file always holds an error test case.
void MarkInterrupted(std::vector<model::CheckResult>& checks, const std::vector<std::string>& paths,
                     int signal);

// The tail's usual causes, quoted next to a tail failure.
inline constexpr const char* kTailCauses =
    "a tail-only failure usually means throttling (burst credits, IOPS caps), noisy neighbours "
    "or background writeback, not a slow device";

}  // namespace durprobe::gate
