#include "explain/cause_signature.h"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "analysis/drift.h"
#include "analysis/durability_risk.h"
#include "analysis/mount_findings.h"
#include "explain/diff_analysis.h"
#include "platform/enum_table.h"
#include "platform/fs_kinds.h"
#include "text/units.h"

namespace durprobe::explain {
namespace {

using probes::Outcome;
using probes::Pattern;
using probes::Primitive;

const probes::ProbeResult* FindProbe(const model::Target& t, Primitive prim, Pattern pat) {
  for (const probes::ProbeResult& r : t.probes) {
    if (r.spec.primitive == prim && r.spec.pattern == pat && r.outcome == Outcome::kOk &&
        r.ops >= kMinEvidenceOps) {
      return &r;
    }
  }
  return nullptr;
}

// The median of the sync call alone (the whole operation for O_*SYNC writes).
std::optional<double> SyncCall(const model::Target& t, Primitive prim, Pattern pat) {
  const probes::ProbeResult* r = FindProbe(t, prim, pat);
  if (r == nullptr) return std::nullopt;
  return static_cast<double>(r->has_sync_part ? r->sync_latency.p50 : r->latency.p50);
}

// The part of an operation outside its sync call (the write, or the create), median.
std::optional<double> OutsideSync(const model::Target& t, Primitive prim, Pattern pat) {
  const probes::ProbeResult* r = FindProbe(t, prim, pat);
  if (r == nullptr || !r->has_sync_part || r->latency.p50 <= r->sync_latency.p50) {
    return std::nullopt;
  }
  return static_cast<double>(r->latency.p50 - r->sync_latency.p50);
}

// A signal's candidate measures, best first; a pair uses the first that both sides have.
using Candidates = std::vector<std::optional<double>>;

std::optional<double> OpSum(const model::Target& t, std::initializer_list<probes::FileOp> ops) {
  double sum = 0;
  for (probes::FileOp op : ops) {
    bool found = false;
    for (const probes::OpCostResult& r : t.op_costs) {
      if (r.op == op && r.outcome == Outcome::kOk && r.ops >= kMinEvidenceOps) {
        sum += static_cast<double>(r.latency.p50);
        found = true;
        break;
      }
    }
    if (!found) return std::nullopt;
  }
  return sum;
}

// One side's candidate measures of each signal that a side alone can give, in the same order
// for every target. Two sides are compared on the same measure: a per-op cost that was the four
// op costs' sum on one side and a plain pwrite on the other (its op costs cut by --quick's
// budget) made a ratio of two different things, and compare --try's leading cause flipped
// between fuse and bind from run to run.
Candidates SideValues(const model::Target& t, Signal s) {
  switch (s) {
    case Signal::kOverwrite:
      return {SyncCall(t, Primitive::kFdatasync, Pattern::kOverwrite),
              SyncCall(t, Primitive::kFsync, Pattern::kOverwrite)};
    case Signal::kAppend:
      return {SyncCall(t, Primitive::kFdatasync, Pattern::kAppend),
              SyncCall(t, Primitive::kFsync, Pattern::kAppend)};
    case Signal::kDirSync:
      return {SyncCall(t, Primitive::kDirFsync, Pattern::kCreate),
              SyncCall(t, Primitive::kDirFsync, Pattern::kRename)};
    case Signal::kPerOp:
      return {OpSum(t, {probes::FileOp::kWrite, probes::FileOp::kRead, probes::FileOp::kOpenClose,
                        probes::FileOp::kStat}),
              SyncCall(t, Primitive::kNone, Pattern::kOverwrite),
              OutsideSync(t, Primitive::kFdatasync, Pattern::kOverwrite)};
    case Signal::kMetadata:
      return {OpSum(t, {probes::FileOp::kCreate, probes::FileOp::kRename}),
              OutsideSync(t, Primitive::kDirFsync, Pattern::kCreate)};
    case Signal::kReference: {
      if (t.reference.empty()) return {};
      double sum = 0;
      for (const model::ReferenceSample& r : t.reference) sum += analysis::ReferenceLevel(r);
      return {sum / static_cast<double>(t.reference.size())};
    }
    case Signal::kSyncCount:
      return {};  // from the matched configurations
  }
  return {};
}

// The configuration whose syncs per commit are furthest apart (a side without syncs counts as
// a tenth of one, so 0 against 2 is a 20x move).
void SyncCountFrom(const std::vector<ConfigDiff>& configs, Signature& sig) {
  std::size_t i = static_cast<std::size_t>(Signal::kSyncCount);
  double widest = 0;
  for (const ConfigDiff& c : configs) {
    if (c.syncs_a <= 0 && c.syncs_b <= 0) continue;
    double r = std::max(c.syncs_b, 0.1) / std::max(c.syncs_a, 0.1);
    if (std::fabs(std::log(r)) < widest && sig.ratio[i]) continue;
    widest = std::fabs(std::log(r));
    sig.ratio[i] = r;
    sig.value[i] = {c.syncs_a, c.syncs_b};
  }
}

// Whether t's reference probe reads the device's state: it runs on the measured path itself, so
// where that path's syncs skip the device's cache flush (barriers off) its level is the barrier's
// effect, not the device's state, and a gap to the other side's reference is the cause itself.
// So where every sync also crosses a server (FUSE, virtiofs, 9p, a network filesystem): its
// round trips are in the reference's level (bindfs against a bind mount of the directory it
// exports read 1.67x on the reference probe alone, and drift led over fuse).
bool ReferenceReadsTheDevice(const model::Target& t) {
  if (!t.mount) return true;
  const std::string& fs = t.mount->fstype;
  bool served = platform::KindOf(fs).served();
  return !analysis::BarrierOff(*t.mount) && !served;
}

SideState StateOf(const model::Target& t) {
  SideState s;
  s.drifted = analysis::HasDriftFinding(t);
  s.not_durable_codes = analysis::NotDurableCodes(t);
  s.not_durable = !s.not_durable_codes.empty() ||
                  (t.durability && t.durability->verdict == model::DurabilityVerdict::kNotDurable);
  if (t.ebs) {
    s.ebs_volume_exceeded_ms =
        static_cast<double>(t.ebs->volume_exceeded_iops_us + t.ebs->volume_exceeded_tp_us) / 1e3;
    s.ebs_instance_exceeded_ms =
        static_cast<double>(t.ebs->instance_exceeded_iops_us + t.ebs->instance_exceeded_tp_us) /
        1e3;
  }
  return s;
}

// The sync probes' move against the reference probe's, where the reference moved.
std::optional<WithReference> WithReferenceOf(const Signature& sig) {
  const std::optional<double>& ref = sig.ratio[static_cast<std::size_t>(Signal::kReference)];
  if (!ref || std::fabs(std::log(*ref)) < std::log(kMoveRatio)) return std::nullopt;
  const double tolerance = std::log(kWithReferenceRatio);
  double log_sum = 0;
  std::size_t n = 0;
  bool each_with = true;
  for (Signal s : {Signal::kOverwrite, Signal::kAppend, Signal::kDirSync}) {
    const std::optional<double>& r = sig.ratio[static_cast<std::size_t>(s)];
    if (!r) continue;
    log_sum += std::log(*r);
    ++n;
    each_with = each_with && std::fabs(std::log(*r / *ref)) <= tolerance;
  }
  if (n == 0) return std::nullopt;
  WithReference w;
  w.reference = *ref;
  w.probes = std::exp(log_sum / static_cast<double>(n));
  const std::optional<double>& per_op = sig.ratio[static_cast<std::size_t>(Signal::kPerOp)];
  bool per_op_still = !per_op || std::fabs(std::log(*per_op)) < std::log(kMoveRatio);
  bool durable = !sig.side[0].not_durable && !sig.side[1].not_durable;
  w.proportional = n >= 2 && each_with && per_op_still && durable;
  w.apart = std::fabs(std::log(w.probes / w.reference)) > tolerance;
  return w;
}

}  // namespace

constexpr platform::TextRow<Signal> kSignalNames[] = {
    {Signal::kOverwrite, "fdatasync overwrite"},   {Signal::kAppend, "fdatasync append"},
    {Signal::kDirSync, "directory fsync"},         {Signal::kPerOp, "per-operation cost"},
    {Signal::kMetadata, "create + rename"},        {Signal::kSyncCount, "syncs per commit"},
    {Signal::kReference, "reference probe level"},
};
static_assert(platform::OneRowPerValue(kSignalNames, kLastSignal), "one name per Signal");

std::string_view NameOf(Signal s) { return platform::TextIn(kSignalNames, s); }

bool IsSyncSignal(Signal s) {
  return s == Signal::kOverwrite || s == Signal::kAppend || s == Signal::kDirSync;
}

std::string FormatSignal(Signal s, double value) {
  return s == Signal::kSyncCount ? fmt::format("{:.2f}", value) : text::FormatNanos(value);
}

Signature MeasureSignature(const model::Target& a, const model::Target& b,
                           const std::vector<ConfigDiff>* configs, bool separate_runs) {
  Signature sig;
  for (std::size_t i = 0; i < kSignalCount; ++i) {
    Signal s = static_cast<Signal>(i);
    if (s == Signal::kReference && (a.reference_probe != b.reference_probe ||
                                    !ReferenceReadsTheDevice(a) || !ReferenceReadsTheDevice(b))) {
      continue;
    }
    Candidates va = SideValues(a, s), vb = SideValues(b, s);
    for (std::size_t k = 0; k < va.size() && k < vb.size(); ++k) {
      if (!va[k] || !vb[k] || *va[k] <= 0 || *vb[k] <= 0) continue;
      sig.ratio[i] = *vb[k] / *va[k];
      sig.value[i] = {*va[k], *vb[k]};
      break;
    }
  }
  if (configs != nullptr) SyncCountFrom(*configs, sig);
  sig.side[0] = StateOf(a);
  sig.side[1] = StateOf(b);
  // Paths compared in one run were measured in the same rounds, so the device's state reached
  // both alike: a gap between their references is the paths (each reference probe runs on its
  // own path, through its filesystem's journal), not the state. Only two runs can differ in it.
  if (separate_runs) sig.with_reference = WithReferenceOf(sig);
  sig.states = StateRatios(b, a);
  return sig;
}

}  // namespace durprobe::explain
