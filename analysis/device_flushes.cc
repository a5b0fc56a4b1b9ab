#include "analysis/device_flushes.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

#include "model/finding_codes.h"
#include "model/labels.h"
#include "probes/primitive_ops.h"
#include "text/units.h"

namespace durprobe::analysis {
namespace {

bool DeviceHasFua(const model::Target& t) {
  return t.mount && t.mount->device && t.mount->device->fua;
}

// fua_direct: the syncs' writes are O_DIRECT on a device with FUA, which flush uncounted.
FlushReach ReachOf(const probes::FlushTally& f, bool fua_direct) {
  const double per_op = f.PerOp();
  const bool writes_flush = WritesFlushThemselves(f);
  // Slices in which the syncs went without a single flush on any device: whatever a neighbour
  // added in the others, those syncs reached none.
  if (f.silent_ops >= kMinFlushEvidenceOps && !writes_flush) {
    return fua_direct ? FlushReach::kMayUseFua : FlushReach::kNone;
  }
  if (per_op >= kReachesPerOp) return FlushReach::kReaches;
  if (writes_flush) return FlushReach::kWritesFlush;
  // None only when, even against the lowest rate without the sync that its count allows, the
  // syncs cannot have flushed once in two (a rate read high by chance in a short control could
  // otherwise take away flushes the syncs did cause), and when the background is not so busy
  // that it could hide a flush per sync (a neighbour busier in the control than in the slices).
  if (f.MostPerOpUpperBound() >= kReachesPerOp || f.MostWithoutSyncPerOp() >= kMaxBackgroundPerOp) {
    return FlushReach::kPartly;
  }
  if (per_op >= kNoFlushPerOp) {
    // Fewer flushes than syncs, beyond the count's own noise: the others reached no device.
    return PerOpHigh(f) < kReachesPerOp ? FlushReach::kSome : FlushReach::kPartly;
  }
  if (fua_direct) return FlushReach::kMayUseFua;
  // Under kNoFlushPerOp, flushes of their own beside a quiet background are still the syncs that
  // did reach the device (a server honouring one sync in ten: 161 flushes for 1,615 syncs): say
  // how many did not, never that none did.
  if (per_op >= kSomeFlushesPerOp && !FlushCountInNoise(f)) return FlushReach::kSome;
  return FlushReach::kNone;
}

// The one-sided 95% upper bound of a Poisson mean from a count (Wilson-Hilferty).
double PoissonHigh(std::uint64_t count) {
  const double k = static_cast<double>(count) + 1.0;
  return k * std::pow(1.0 - 1.0 / (9.0 * k) + 1.645 / (3.0 * std::sqrt(k)), 3);
}

}  // namespace

std::uint64_t SyncFlushes::unreached() const {
  const double reached = std::min(per_op, 1.0) * static_cast<double>(ops);
  return ops - std::min(ops, static_cast<std::uint64_t>(std::llround(reached)));
}

double PerOpHigh(const probes::FlushTally& t) {
  const probes::DeviceFlushes* lead = t.Leading();
  if (lead == nullptr || t.ops == 0) return 0.0;
  const double extra = PoissonHigh(lead->flushes) - static_cast<double>(lead->flushes);
  return t.PerOpUpperBound(*lead) + extra / static_cast<double>(t.ops);
}

bool FlushCountInNoise(const probes::FlushTally& t) {
  return t.ok() && t.MostWithoutSyncPerOp() >= kNoisyBackgroundPerOp;
}

bool FlushCountDecides(const probes::FlushTally& t) {
  // Whether the writes are O_DIRECT on a FUA device changes only which decided answer it is.
  return !t.ok() || t.ops < kMinFlushEvidenceOps || ReachOf(t, false) != FlushReach::kPartly;
}

bool WritesFlushThemselves(const probes::FlushTally& t) {
  return t.ok() && t.control_ops > 0 && t.ControlPerWrite() >= kReachesPerOp;
}

std::vector<SyncFlushes> SyncFlushEvidence(const model::Target& target) {
  std::vector<SyncFlushes> out;
  const bool fua = DeviceHasFua(target);
  for (const probes::ProbeResult& r : target.probes) {
    const probes::FlushTally& f = r.device_flushes;
    if (r.outcome != probes::Outcome::kOk || !probes::OpsOf(r.spec.primitive).durable || !f.ok() ||
        f.ops < kMinFlushEvidenceOps) {
      continue;
    }
    const probes::DeviceFlushes* lead = f.Leading();
    out.push_back({r.spec, ReachOf(f, fua && probes::OpsOf(r.spec.primitive).open.direct),
                   f.PerOp(), f.ops, lead ? lead->flushes : 0,
                   lead ? lead->name : "", lead ? f.WithoutSyncPerSec(*lead) : 0.0, f.silent_ops,
                   PerOpHigh(f)});
  }
  return out;
}

std::vector<const SyncFlushes*> FirstOfEachPrimitive(const std::vector<SyncFlushes>& evidence,
                                                     FlushReach reach) {
  std::vector<const SyncFlushes*> firsts;
  for (const SyncFlushes& e : evidence) {
    if (e.reach != reach) continue;
    if (std::none_of(firsts.begin(), firsts.end(),
                     [&](const SyncFlushes* f) { return f->spec.primitive == e.spec.primitive; })) {
      firsts.push_back(&e);
    }
  }
  return firsts;
}

std::string NoFlushSummary(const std::vector<SyncFlushes>& evidence) {
  std::vector<std::string> parts;
  for (const SyncFlushes* e : FirstOfEachPrimitive(evidence, FlushReach::kNone)) {
    std::uint64_t ops = 0, flushes = 0, silent = 0;
    double without_sync = 0.0;
    for (const SyncFlushes& same : evidence) {
      if (same.spec.primitive != e->spec.primitive || same.reach != FlushReach::kNone) continue;
      ops += same.ops;
      flushes += same.flushes;
      silent += same.silent_ops;
      without_sync = std::max(without_sync, same.without_sync_per_sec);
    }
    std::string why;
    if (flushes > 0 && silent > 0) {
      why = fmt::format(
          " ({} of the syncs went without a single flush on any device; the "
          "others' flushes came and went as a neighbour's do)",
          text::CountText(silent));
    } else if (flushes > 0) {
      why = fmt::format(" (no more than the same writes without the sync made: {} a second)",
                        text::FormatRate(without_sync));
    }
    parts.push_back(fmt::format("{} reached no device: {} sync{}, {} flush{}{}",
                                probes::NameOf(e->spec.primitive), text::CountText(ops),
                                ops == 1 ? "" : "s", text::CountText(flushes),
                                flushes == 1 ? "" : "es", why));
  }
  for (const SyncFlushes* e : FirstOfEachPrimitive(evidence, FlushReach::kSome)) {
    parts.push_back(fmt::format(
        "{} of {} {}s reached no device ({} flush{} on {}, {:.2f} per sync after the "
        "background, at most {:.2f} at 95%: fewer flushes than syncs)",
        text::CountText(e->unreached()), text::CountText(e->ops), probes::NameOf(e->spec.primitive),
        text::CountText(e->flushes), e->flushes == 1 ? "" : "es", e->device, e->per_op,
        e->per_op_high));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string SyncsThatUse(probes::Primitive primitive) {
  using probes::Primitive;
  switch (primitive) {
    case Primitive::kFdatasync:
      return "SQLite's syncs (its unix VFS calls fdatasync on Linux), PostgreSQL's WAL with "
             "wal_sync_method=fdatasync (its default on Linux), etcd's WAL and its backend's "
             "commits";
    case Primitive::kFsync:
      return "PostgreSQL's data files at each checkpoint, and its WAL with wal_sync_method=fsync";
    case Primitive::kOdsync:
      return "PostgreSQL's WAL with wal_sync_method=open_datasync";
    case Primitive::kOsync:
      return "PostgreSQL's WAL with wal_sync_method=open_sync";
    case Primitive::kOdirectDsync:
      return "PostgreSQL's WAL with wal_sync_method=open_datasync where it writes the WAL with "
             "O_DIRECT (wal_level=minimal)";
    case Primitive::kOdirectSync:
      return "PostgreSQL's WAL with wal_sync_method=open_sync where it writes the WAL with "
             "O_DIRECT (wal_level=minimal)";
    case Primitive::kDirFsync:
      return "SQLite's directory syncs (a DELETE journal's creation), PostgreSQL's and etcd's "
             "syncs of the directory of a new WAL segment";
    default:
      return "";
  }
}

bool ReachedNoDevice(const std::vector<SyncFlushes>& evidence, probes::Primitive primitive) {
  return std::any_of(evidence.begin(), evidence.end(), [&](const SyncFlushes& e) {
    return e.spec.primitive == primitive &&
           (e.reach == FlushReach::kNone || e.reach == FlushReach::kSome);
  });
}

bool ReachedADevice(const std::vector<SyncFlushes>& evidence, probes::Primitive primitive) {
  return std::any_of(evidence.begin(), evidence.end(), [&](const SyncFlushes& e) {
    return e.spec.primitive == primitive && e.reach == FlushReach::kReaches;
  });
}

std::vector<model::Finding> DeviceFlushFindings(const model::Target& target) {
  const std::vector<SyncFlushes> evidence = SyncFlushEvidence(target);
  const std::string none = NoFlushSummary(evidence);
  if (none.empty()) return {};
  std::vector<std::string_view> reached;
  for (const SyncFlushes* e : FirstOfEachPrimitive(evidence, FlushReach::kReaches)) {
    reached.push_back(probes::NameOf(e->spec.primitive));
  }
  const std::string also = fmt::format("{}", fmt::join(reached, ", "));
  std::vector<const SyncFlushes*> lost = FirstOfEachPrimitive(evidence, FlushReach::kNone);
  for (const SyncFlushes* e : FirstOfEachPrimitive(evidence, FlushReach::kSome)) lost.push_back(e);
  std::vector<std::string> affected;
  for (const SyncFlushes* e : lost) {
    std::string users = SyncsThatUse(e->spec.primitive);
    if (!users.empty()) {
      affected.push_back(fmt::format("{}: {}", probes::NameOf(e->spec.primitive), users));
    }
  }
  return {
      {model::Severity::kWarn, model::codes::kSyncReachesNoDevice,
       fmt::format("{} (the block devices' own flush counters, less the background){}{}", none,
                   also.empty() ? std::string() : fmt::format("; {} did reach the device", also),
                   affected.empty()
                       ? std::string()
                       : fmt::format(". Lost on power loss here: {}", fmt::join(affected, "; ")))}};
}

}  // namespace durprobe::analysis
