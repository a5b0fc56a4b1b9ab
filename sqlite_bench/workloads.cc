#include "sqlite_bench/workloads.h"

#include "platform/interrupt.h"

namespace durprobe::sqlite_bench {
namespace {

// Shares of the budget. Locks take no budget: eight cases that each end at their first answer.
double Weight(Workload w) {
  switch (w) {
    case Workload::kRead: return 0.35;
    case Workload::kConnect: return 0.15;
    case Workload::kLocks: return 0.0;
    case Workload::kConcurrency: return 0.35;
    case Workload::kWalGrowth: return 0.15;
  }
  return 0.0;
}

}  // namespace

std::string_view NameOf(Workload w) {
  switch (w) {
    case Workload::kRead: return "read";
    case Workload::kConnect: return "connect";
    case Workload::kLocks: return "locks";
    case Workload::kConcurrency: return "concurrency";
    case Workload::kWalGrowth: return "wal_growth";
  }
  return "?";
}

const std::map<std::string, Workload>& WorkloadNames() {
  static const std::map<std::string, Workload> names = {
      {"read", Workload::kRead},          {"connect", Workload::kConnect},
      {"locks", Workload::kLocks},        {"concurrency", Workload::kConcurrency},
      {"wal_growth", Workload::kWalGrowth}};
  return names;
}

std::vector<Workload> AllWorkloads() {
  return {Workload::kRead, Workload::kConnect, Workload::kLocks, Workload::kConcurrency,
          Workload::kWalGrowth};
}

std::vector<std::string> WorkloadErrors(const WorkloadResults& r) {
  std::vector<std::string> errors;
  auto add = [&](const WorkloadStatus& s, const std::string& label) {
    if (s.outcome == probes::Outcome::kError) errors.push_back(label + ": " + s.reason);
  };
  for (const ReadResult& e : r.read) add(e, "read " + e.variant);
  for (const ConnectResult& e : r.connect) add(e, "connect " + e.mode);
  for (const LockResult& e : r.locks) add(e, "locks " + e.journal_mode + " " + e.lock_case + " via " + e.via);
  for (const ConcurrencyResult& e : r.concurrency) add(e, "concurrency " + e.settings + " via " + e.via);
  for (const WalGrowthResult& e : r.wal_growth) add(e, "wal_growth");
  return errors;
}

WorkloadResults RunWorkloads(platform::Platform& platform, const std::string& dir,
                             const WorkloadPlan& plan) {
  WorkloadResults results;
  double total = 0.0;
  for (Workload w : plan.workloads) total += Weight(w);
  for (Workload w : AllWorkloads()) {
    bool selected = false;
    for (Workload s : plan.workloads) selected = selected || s == w;
    if (!selected) continue;
    if (platform::InterruptSignal() != 0) break;
    WorkloadOptions o = plan.options;
    o.budget_ns = total > 0.0 ? static_cast<std::uint64_t>(double(plan.options.budget_ns) *
                                                             Weight(w) / total)
                              : 0;
    switch (w) {
      case Workload::kRead: results.read = RunReadWorkload(platform, dir, o); break;
      case Workload::kConnect: results.connect = RunConnectWorkload(platform, dir, o); break;
      case Workload::kLocks: results.locks = RunLockWorkload(platform, dir); break;
      case Workload::kConcurrency: results.concurrency = RunConcurrencyWorkload(platform, dir, o); break;
      case Workload::kWalGrowth: results.wal_growth.push_back(RunWalGrowthWorkload(platform, dir, o)); break;
    }
  }
  return results;
}

}  // namespace durprobe::sqlite_bench
