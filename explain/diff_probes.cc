#include "explain/diff_probes.h"

#include <fmt/format.h>

#include <cmath>

#include "explain/diff_analysis.h"
#include "text/units.h"

namespace durprobe::explain {
namespace {

// Mean time inside the sync: the sync call when timed alone; for O_DSYNC / O_SYNC writes the
// write is the sync; a write without sync has none.
double SyncMean(const probes::ProbeResult& r) {
  if (r.has_sync_part) return r.sync_latency.mean;
  return r.spec.primitive == probes::Primitive::kNone ? 0.0 : r.latency.mean;
}

}  // namespace

std::vector<ProbeDiff> DiffProbes(const model::Target& a, const model::Target& b) {
  std::vector<ProbeDiff> out;
  for (const probes::ProbeResult& pa : a.probes) {
    if (pa.outcome != probes::Outcome::kOk || pa.latency.mean <= 0) continue;
    for (const probes::ProbeResult& pb : b.probes) {
      if (pb.outcome != probes::Outcome::kOk || pb.latency.mean <= 0 ||
          pb.spec.primitive != pa.spec.primitive || pb.spec.pattern != pa.spec.pattern ||
          pb.spec.write_size != pa.spec.write_size ||
          pb.spec.writes_per_op != pa.spec.writes_per_op) {
        continue;
      }
      ProbeDiff d;
      d.primitive = probes::NameOf(pa.spec.primitive);
      d.pattern = probes::NameOf(pa.spec.pattern);
      d.write_size = pa.spec.write_size;
      d.writes_per_op = pa.spec.writes_per_op;
      d.p50_a = pa.latency.p50;
      d.p50_b = pb.latency.p50;
      d.mean_a = pa.latency.mean;
      d.mean_b = pb.latency.mean;
      d.sync_a = SyncMean(pa);
      d.sync_b = SyncMean(pb);
      double gap = d.mean_b - d.mean_a;
      if (gap != 0.0) {
        d.share_sync = (d.sync_b - d.sync_a) / gap;
        d.share_non_sync = 1.0 - d.share_sync;
      }
      out.push_back(d);
      break;
    }
  }
  return out;
}

std::string LabelOf(const ProbeDiff& d) {
  if (d.write_size == 0) return d.primitive + " " + d.pattern;
  if (d.writes_per_op != 1) {
    return fmt::format("{} {} {}x{}", d.primitive, d.pattern, d.writes_per_op,
                       text::FormatBytes(d.write_size));
  }
  return fmt::format("{} {} {}", d.primitive, d.pattern, text::FormatBytes(d.write_size));
}

DiffVerdict ProbeVerdict(const std::vector<ProbeDiff>& probes, double* weight) {
  double sync = 0, rest = 0;
  const ProbeDiff* headline = nullptr;
  for (const ProbeDiff& p : probes) {
    // A write without sync (`none`) makes no sync call: its gap is the page cache's, never the
    // cause of a difference in durability cost.
    if (p.primitive == probes::NameOf(probes::Primitive::kNone)) continue;
    if (std::fabs(p.mean_b - p.mean_a) < kMeaningfulGap * p.mean_a) continue;
    double w = std::fabs(std::log(p.mean_b / p.mean_a));
    sync += w * std::fabs(p.share_sync);
    rest += w * std::fabs(p.share_non_sync);
    if (w > *weight) {
      *weight = w;
      headline = &p;
    }
  }
  if (headline == nullptr) {
    return {DiffFactor::kConfiguration,
            fmt::format("no SQLite configuration in common; the sync probes both reports measured "
                        "agree within {:.0f}% ({} probe(s) in common); nothing to attribute",
                        kMeaningfulGap * 100, probes.size())};
  }
  const ProbeDiff& h = *headline;
  DiffFactor factor = sync >= rest ? DiffFactor::kSyncLatency : DiffFactor::kNonSync;
  double share = factor == DiffFactor::kSyncLatency ? h.share_sync : h.share_non_sync;
  std::string sync_call = h.sync_a == 0 && h.sync_b == 0
                              ? std::string("no sync call in this probe")
                              : fmt::format("the sync call {} vs {}", text::FormatNanos(h.sync_a),
                                            text::FormatNanos(h.sync_b));
  return {
      factor,
      fmt::format("no SQLite configuration in common; from the probes: {} takes {} in a vs {} "
                  "in b (mean, {}; median {} vs {}); {:.0f}% of that gap is {} ({}); {}",
                  LabelOf(h), text::FormatNanos(h.mean_a), text::FormatNanos(h.mean_b),
                  text::FormatRatio(h.mean_b / h.mean_a), text::FormatNanos(double(h.p50_a)),
                  text::FormatNanos(double(h.p50_b)), share * 100,
                  factor == DiffFactor::kSyncLatency ? "in the sync call" : "outside the sync call",
                  sync_call, DiffAdvice(factor))};
}

std::vector<ConcurrencyDiff> DiffConcurrency(const model::Target& a, const model::Target& b) {
  std::vector<ConcurrencyDiff> out;
  auto measured = [](const probes::ConcurrencyResult& r) {
    return r.outcome == probes::Outcome::kOk && r.ops > 0;
  };
  for (const probes::ConcurrencyResult& ra : a.concurrency) {
    if (!measured(ra)) continue;
    for (const probes::ConcurrencyResult& rb : b.concurrency) {
      if (rb.spec != ra.spec || !measured(rb)) continue;
      out.push_back({ra.spec, ra.aggregate_ops_per_sec, rb.aggregate_ops_per_sec, ra.latency.p50,
                     rb.latency.p50});
      break;
    }
  }
  return out;
}

}  // namespace durprobe::explain
