#include "sqlite_bench/workloads.h"

namespace durprobe::sqlite_bench {
namespace {

// Shares of the budget. Locks take no budget: eight cases that each end at their first answer.
double Weight(Workload w) {
  switch (w) {
    case Workload::kRead:
      return 0.35;
    case Workload::kConnect:
      return 0.15;
    case Workload::kLocks:
      return 0.0;
    case Workload::kConcurrency:
      return 0.35;
    case Workload::kWalGrowth:
      return 0.15;
  }
  return 0.0;
}

}  // namespace

std::string_view NameOf(Workload w) {
  switch (w) {
    case Workload::kRead:
      return "read";
    case Workload::kConnect:
      return "connect";
    case Workload::kLocks:
      return "locks";
    case Workload::kConcurrency:
      return "concurrency";
    case Workload::kWalGrowth:
      return "wal_growth";
  }
  return "?";
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
  for (const LockResult& e : r.locks)
    add(e, "locks " + e.journal_mode + " " + e.lock_case + " via " + e.via);
  for (const ConcurrencyResult& e : r.concurrency)
    add(e, "concurrency " + e.settings + " via " + e.via);
  for (const WalGrowthResult& e : r.wal_growth) add(e, "wal_growth");
  return errors;
}

std::vector<Workload> SelectedWorkloads(const WorkloadPlan& plan) {
  std::vector<Workload> out;
  for (Workload w : AllWorkloads()) {
    for (Workload s : plan.workloads) {
      if (s == w) {
        out.push_back(w);
        break;
      }
    }
  }
  return out;
}

std::uint64_t WorkloadBudget(const WorkloadPlan& plan, Workload w) {
  double total = 0.0;
  for (Workload s : SelectedWorkloads(plan)) total += Weight(s);
  if (total <= 0.0) return 0;
  return static_cast<std::uint64_t>(double(plan.options.budget_ns) * Weight(w) / total);
}

void RunWorkload(platform::Platform& platform, const std::string& dir, const WorkloadPlan& plan,
                 Workload w, WorkloadResults& into) {
  WorkloadOptions o = plan.options;
  o.budget_ns = WorkloadBudget(plan, w);
  switch (w) {
    case Workload::kRead:
      into.read = RunReadWorkload(platform, dir, o);
      break;
    case Workload::kConnect:
      into.connect = RunConnectWorkload(platform, dir, o);
      break;
    case Workload::kLocks:
      into.locks = RunLockWorkload(platform, dir, o.deadline_ns, &into.cut);
      break;
    case Workload::kConcurrency:
      into.concurrency = RunConcurrencyWorkload(platform, dir, o, &into.cut);
      break;
    case Workload::kWalGrowth:
      into.wal_growth.push_back(RunWalGrowthWorkload(platform, dir, o));
      break;
  }
}

}  // namespace durprobe::sqlite_bench
