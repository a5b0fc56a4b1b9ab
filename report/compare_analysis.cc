#include "report/compare_analysis.h"

#include <algorithm>

#include <fmt/format.h>

#include "report/units.h"

namespace durprobe::report {
namespace {

using probes::FileOp;
using probes::Outcome;
using probes::Pattern;
using probes::Primitive;

std::optional<double> ProbeMedian(const Target& t, Primitive prim, Pattern pat, bool sync_only) {
  for (const probes::ProbeResult& r : t.probes) {
    if (r.spec.primitive != prim || r.spec.pattern != pat || r.outcome != Outcome::kOk) continue;
    if (r.ops == 0) continue;
    if (sync_only && !r.has_sync_part) continue;
    return static_cast<double>(sync_only ? r.sync_latency.p50 : r.latency.p50);
  }
  return std::nullopt;
}

std::optional<double> OpMedian(const Target& t, FileOp op) {
  for (const probes::OpCostResult& r : t.op_costs) {
    if (r.op == op && r.outcome == Outcome::kOk && r.ops > 0) {
      return static_cast<double>(r.latency.p50);
    }
  }
  return std::nullopt;
}

std::optional<double> Sum(std::initializer_list<std::optional<double>> parts) {
  double total = 0;
  for (const auto& p : parts) {
    if (!p) return std::nullopt;
    total += *p;
  }
  return total;
}

double Ratio(const std::optional<double>& a, const std::optional<double>& base) {
  if (!a || !base || *base <= 0) return 0.0;
  return *a / *base;
}

std::string Advice(const std::string& dominant) {
  if (dominant == "per_op") {
    return "every file operation crosses a slower layer (FUSE, virtiofs, 9p or a network share): "
           "keep the database on a volume inside the VM or container, not on a host share";
  }
  if (dominant == "per_sync") {
    return "the flush path is slower (device, cache mode, virtual disk or host policy): put the "
           "database on storage with faster flushes, or batch more work per commit";
  }
  return "creating and renaming files is slower here: prefer journal modes that reuse files "
         "(WAL, TRUNCATE, PERSIST) over DELETE";
}

}  // namespace

Components ComponentsOf(const Target& t) {
  Components c;
  std::optional<double> write = OpMedian(t, FileOp::kWrite);
  std::optional<double> synced = ProbeMedian(t, Primitive::kFdatasync, Pattern::kOverwrite, false);
  if (write && synced) c.per_sync_ns = std::max(0.0, *synced - *write);
  c.per_op_ns = Sum({write, OpMedian(t, FileOp::kRead), OpMedian(t, FileOp::kOpenClose),
                     OpMedian(t, FileOp::kStat)});
  c.metadata_ns = Sum({OpMedian(t, FileOp::kCreate), OpMedian(t, FileOp::kRename),
                       ProbeMedian(t, Primitive::kDirFsync, Pattern::kCreate, true)});
  return c;
}

std::vector<Verdict> CompareVerdicts(const std::vector<Target>& targets) {
  std::vector<Verdict> verdicts;
  if (targets.size() < 2) return verdicts;
  Components base = ComponentsOf(targets.front());
  for (std::size_t i = 1; i < targets.size(); ++i) {
    Components c = ComponentsOf(targets[i]);
    Verdict v;
    v.path = targets[i].path;
    v.per_sync_ratio = Ratio(c.per_sync_ns, base.per_sync_ns);
    v.per_op_ratio = Ratio(c.per_op_ns, base.per_op_ns);
    v.metadata_ratio = Ratio(c.metadata_ns, base.metadata_ns);
    struct Part {
      const char* name;
      double ratio;
      std::optional<double> here, there;
      const char* what;
    };
    Part parts[] = {{"per_sync", v.per_sync_ratio, c.per_sync_ns, base.per_sync_ns,
                     "a sync (fdatasync minus the write)"},
                    {"per_op", v.per_op_ratio, c.per_op_ns, base.per_op_ns,
                     "plain file operations (write + read + open/close + stat)"},
                    {"metadata", v.metadata_ratio, c.metadata_ns, base.metadata_ns,
                     "metadata (create + rename + directory fsync)"}};
    const Part* worst = nullptr;
    for (const Part& p : parts) {
      if (p.ratio >= kPenaltyRatio && (worst == nullptr || p.ratio > worst->ratio)) worst = &p;
    }
    if (worst == nullptr) {
      v.dominant = "none";
      v.message = fmt::format("no penalty of {} or more against {} in any component",
                              FormatRatio(kPenaltyRatio), targets.front().path);
    } else {
      v.dominant = worst->name;
      v.ratio = worst->ratio;
      v.message = fmt::format("{}: {} the first path's ({} vs {}); {}", worst->what,
                              FormatRatio(worst->ratio), FormatNanos(*worst->here),
                              FormatNanos(*worst->there), Advice(v.dominant));
    }
    verdicts.push_back(std::move(v));
  }
  return verdicts;
}

}  // namespace durprobe::report
