// What the device counters say each durable probe's syncs did (probes/flush_tally.h): reached a
// device (about one flush each), reached none (no flush while plain writes stay cached), or
// were not needed (plain writes flush by themselves: -o sync). The durability model reads it
// as its `device flushes` layer; sync_noop_suspected yields to it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/report.h"
#include "probes/flush_tally.h"

namespace durprobe::analysis {

// Thresholds, named so docs/durability.md can quote them.
inline constexpr double kReachesPerOp = probes::kFlushReachesPerOp;  // the sync reaches a device
inline constexpr double kNoFlushPerOp = 0.1;  // below this, the sync reached no device
// ... unless its flushes (after the background) reach this many per sync with a quiet
// background: then they are the syncs that did reach one (FlushReach::kSome), not a journal
// commit's among thousands of syncs.
inline constexpr double kSomeFlushesPerOp = 0.02;
inline constexpr std::uint64_t kMinFlushEvidenceOps = 20;  // fewer operations prove nothing
// A background of this many flushes per sync or more (what the same writes without the sync
// would have flushed over the syncs' time) can hide a flush per sync: no sync is said to reach
// no device under it.
inline constexpr double kMaxBackgroundPerOp = 1.0;

// A count beside a background of this many flushes per operation or more (MostWithoutSyncPerOp:
// another process flushing the same device) is good only to about that background: a no-flush
// write can read 0.2 (seen in CI beside another test's fsyncs). Its flush/op is shown with it.
inline constexpr double kNoisyBackgroundPerOp = kNoFlushPerOp;

enum class FlushReach {
  kReaches,  // per_op at least kReachesPerOp
  kPartly,   // in between, or too busy a background to tell: some syncs flushed, or not
  // Fewer flushes than syncs beyond the counts' noise (PerOpHigh under kReachesPerOp, a quiet
  // enough background) while some did flush: the syncs that did not reached no device (a FUSE
  // server honouring one sync in N). Decided with its bound, as kNone.
  kSome,
  kNone,         // under kNoFlushPerOp, and surely under kReachesPerOp (PerOpUpperBound),
                 // while plain writes stay cached
  kWritesFlush,  // plain writes flush by themselves: the sync had nothing left to flush
  kMayUseFua,    // none counted, but O_DIRECT writes on a FUA device flush as they go, uncounted
};

struct SyncFlushes {
  probes::ProbeSpec spec;
  FlushReach reach = FlushReach::kNone;
  double per_op = 0.0;
  std::uint64_t ops = 0;
  std::uint64_t flushes = 0;          // on the leading device, background included
  std::string device;                 // the leading device
  double without_sync_per_sec = 0.0;  // its flushes a second without the sync (the control)
  std::uint64_t silent_ops = 0;       // syncs in slices without a single flush (FlushTally)
  double per_op_high = 0.0;           // PerOpHigh: the most per_op the counts allow (95%)
  // The syncs that reached no device: ops less the flushes per_op counts (kSome and kNone).
  std::uint64_t unreached() const;
};

// The most flushes per operation the sync can have added on the leading device (95%,
// one-sided): the Poisson upper bound of its count less the fewest the background allows.
double PerOpHigh(const probes::FlushTally& t);

// Whether t was counted beside a background of kNoisyBackgroundPerOp or more.
bool FlushCountInNoise(const probes::FlushTally& t);

// Whether t's count decides what the syncs did (reached a device, reached none, some did not,
// their writes flush by themselves): false while it is kPartly, a neighbour's flushes beside the
// syncs' too many for the control measured so far (probes::StopRule::flush_count_decides). True
// when nothing was counted or too few operations ran for any verdict.
bool FlushCountDecides(const probes::FlushTally& t);

// Whether the control's plain writes flushed by themselves (about one flush a write).
bool WritesFlushThemselves(const probes::FlushTally& t);

// One entry per durable probe that ran with counted flushes and at least kMinFlushEvidenceOps
// operations, in the probes' order.
std::vector<SyncFlushes> SyncFlushEvidence(const model::Target& target);

// The database syncs that rely on primitive on Linux, as SQLite, PostgreSQL and etcd make them:
// "PostgreSQL's WAL with wal_sync_method=open_datasync"; "" where none of them uses it by default.
std::string SyncsThatUse(probes::Primitive primitive);

// Whether the evidence has primitive's syncs reaching no device (all or some of them: kNone or
// kSome), or reaching one.
bool ReachedNoDevice(const std::vector<SyncFlushes>& evidence, probes::Primitive primitive);
bool ReachedADevice(const std::vector<SyncFlushes>& evidence, probes::Primitive primitive);

// sync_reaches_no_device (warn): a durable primitive whose syncs reached no device, and the
// database syncs that rely on it (SyncsThatUse).
std::vector<model::Finding> DeviceFlushFindings(const model::Target& target);

// The first entry of each primitive whose syncs had reach, in the evidence's order.
std::vector<const SyncFlushes*> FirstOfEachPrimitive(const std::vector<SyncFlushes>& evidence,
                                                     FlushReach reach);

// "fdatasync reached no device: 4,677 syncs, 0 flushes", or where some flushed "1,413 of 1,615
// fdatasyncs reached no device (202 flushes after the background, ...)": the primitives whose
// syncs reached none (kNone, kSome), each named once; "" when every one reached a device.
std::string NoFlushSummary(const std::vector<SyncFlushes>& evidence);

}  // namespace durprobe::analysis
