#include "analysis/plausibility.h"

#include <fmt/format.h>

#include <optional>

#include "analysis/device_flushes.h"
#include "model/finding_codes.h"
#include "model/labels.h"
#include "model/percentiles.h"
#include "probes/primitive_ops.h"
#include "text/units.h"

namespace durprobe::analysis {
namespace {

using probes::Outcome;
using probes::Pattern;
using probes::Primitive;
using probes::ProbeResult;

bool Measured(const ProbeResult& r) { return r.outcome == Outcome::kOk && r.ops > 0; }

std::string Ns(std::uint64_t v) { return text::FormatNanos(static_cast<double>(v)); }

std::optional<ProbeResult> PlainWrite(const model::Target& t, const ProbeResult& like) {
  for (const ProbeResult& r : t.probes) {
    if (r.spec.primitive == Primitive::kNone && r.spec.pattern == like.spec.pattern &&
        r.spec.write_size == like.spec.write_size &&
        r.spec.writes_per_op == like.spec.writes_per_op && Measured(r)) {
      return r;
    }
  }
  return std::nullopt;
}

void NoopSyncs(const model::Target& t, const StorageFacts& facts,
               std::vector<model::Finding>& out) {
  std::vector<std::string> evidence;
  for (const ProbeResult& r : t.probes) {
    if (!Measured(r) || !probes::OpsOf(r.spec.primitive).durable) continue;
    std::optional<ProbeResult> plain = PlainWrite(t, r);
    if (!plain) continue;
    // The device saw the syncs' flushes, or plain writes flush by themselves (-o sync): a sync
    // that costs little then is no evidence of a no-op.
    if (r.device_flushes.ok() &&
        (r.device_flushes.PerOp() >= kReachesPerOp || WritesFlushThemselves(r.device_flushes) ||
         WritesFlushThemselves(plain->device_flushes))) {
      continue;
    }
    double added = static_cast<double>(r.latency.p50) - static_cast<double>(plain->latency.p50);
    if (added < kNoopAddedNs) {
      evidence.push_back(fmt::format("{} {} vs plain write {}", model::ProbeLabel(r.spec),
                                     Ns(r.latency.p50), Ns(plain->latency.p50)));
    }
  }
  if (evidence.empty()) return;
  bool expected = facts.known && !facts.block_backed;
  out.push_back({expected ? model::Severity::kInfo : model::Severity::kWarn,
                 model::codes::kSyncNoopSuspected,
                 fmt::format("syncs cost no more than a plain write ({}{}): they are not reaching "
                             "stable storage (tmpfs, a no-op layer, an interposed library or a "
                             "cache that ignores flushes); do not count on durability here",
                             evidence.front(),
                             evidence.size() > 1 ? fmt::format("; {} more", evidence.size() - 1)
                                                 : std::string())});
}

// One finding per code and target: the most striking probe as the example, and how many more.
struct StrikingProbes {
  double score = 0;  // how striking: the ratio that triggered it
  std::string text;
  int count = 0;
};

void Note(StrikingProbes& e, double score, std::string text) {
  ++e.count;
  if (score > e.score) {
    e.score = score;
    e.text = std::move(text);
  }
}

std::string More(const StrikingProbes& e) {
  if (e.count <= 1) return std::string();
  return fmt::format(" ({} more {} alike)", e.count - 1, e.count == 2 ? "probe" : "probes");
}

void Shapes(const model::Target& t, std::vector<model::Finding>& out) {
  StrikingProbes tail, outlier, bimodal;
  for (const ProbeResult& r : t.probes) {
    if (!Measured(r) || r.spec.primitive == Primitive::kNone || r.ops < 20) continue;
    const probes::LatencySummary& l = r.latency;
    if (l.p50 == 0) continue;
    // A p99 from under 100 operations is the slowest one: the outlier check covers it.
    std::optional<std::uint64_t> p99 = model::P99(l);
    double tail_ratio = p99 ? static_cast<double>(*p99) / static_cast<double>(l.p50) : 0.0;
    if (p99 && tail_ratio >= kTailRatio) {
      Note(tail, tail_ratio,
           fmt::format("{}: p99 is {:.0f}x the median (p50 {}, p99 {})", model::ProbeLabel(r.spec),
                       tail_ratio, Ns(l.p50), Ns(l.p99)));
    }
    double outlier_ratio = static_cast<double>(l.max) / static_cast<double>(l.p50);
    if (outlier_ratio >= kOutlierRatio && l.max >= 10'000'000) {
      Note(outlier, outlier_ratio,
           fmt::format("{}: the slowest of {} operations took {} ({:.0f}x the median)",
                       model::ProbeLabel(r.spec), r.ops, Ns(l.max), outlier_ratio));
    }
    if (l.bimodal) {
      Note(bimodal, static_cast<double>(l.mode_high) / static_cast<double>(l.mode_low + 1),
           fmt::format("{}: near {} and near {} ({:.0f}% of operations in the slower cluster)",
                       model::ProbeLabel(r.spec), Ns(l.mode_low), Ns(l.mode_high),
                       l.high_mode_share * 100.0));
    }
  }
  if (tail.count > 0) {
    out.push_back({model::Severity::kWarn, model::codes::kSyncTailHeavy,
                   fmt::format("{}{}: one operation in a hundred stalls; a database's slowest "
                               "commits will too",
                               tail.text, More(tail))});
  }
  if (outlier.count > 0) {
    out.push_back(
        {model::Severity::kInfo, model::codes::kSyncMaxOutlier, outlier.text + More(outlier)});
  }
  if (bimodal.count > 0) {
    out.push_back({model::Severity::kInfo, model::codes::kSyncBimodal,
                   fmt::format("latencies form two clusters, {}{}: periodic journal commits, "
                               "writeback stalls or a throttled virtual disk; commits will see "
                               "the slower one that often",
                               bimodal.text, More(bimodal))});
  }
}

void FasterThanDevice(const model::Target& t, const StorageFacts& facts,
                      std::vector<model::Finding>& out) {
  if (!facts.known || !facts.block_backed || !facts.volatile_cache || facts.fua) return;
  double limit = facts.rotational ? kRotationalFlushNs : kVolatileSsdFlushNs;
  for (const ProbeResult& r : t.probes) {
    if (!Measured(r) || r.spec.primitive != Primitive::kFdatasync ||
        r.spec.pattern != Pattern::kOverwrite) {
      continue;
    }
    if (static_cast<double>(r.latency.p50) >= limit) continue;
    out.push_back({model::Severity::kWarn, model::codes::kSyncFasterThanDevice,
                   fmt::format("{} takes {}, faster than a {} with a volatile write cache can "
                               "flush (about {} or more): the flush is likely absorbed by a cache "
                               "(a virtual disk's host, a controller) that may not survive power "
                               "loss; only a power-cut test proves it",
                               model::ProbeLabel(r.spec), Ns(r.latency.p50),
                               facts.rotational ? "spinning disk" : "typical SSD",
                               text::FormatNanos(limit))});
    return;
  }
}

}  // namespace

std::vector<model::Finding> PlausibilityFindings(const model::Target& target,
                                                 const StorageFacts& facts) {
  std::vector<model::Finding> out;
  NoopSyncs(target, facts, out);
  FasterThanDevice(target, facts, out);
  Shapes(target, out);
  return out;
}

}  // namespace durprobe::analysis
