#include "analysis/durability_model.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <optional>
#include <string>

#include "analysis/crashtest_agreement.h"
#include "analysis/device_flushes.h"
#include "analysis/mount_findings.h"
#include "analysis/plausibility.h"
#include "analysis/powercut_verdict.h"
#include "model/finding_codes.h"
#include "platform/fs_kinds.h"
#include "platform/mountinfo.h"
#include "text/units.h"

namespace durprobe::analysis {
namespace {

using platform::MountInfo;
using platform::OptionValue;

constexpr int kMaxChain = 8;  // loop devices followed, as platform/linux_inspect.cc does

// A layer as the rules see it: the model's layer plus what would prove it when it is unknown,
// and the finding code that says the same thing in the findings list.
struct Layer {
  model::DurabilityLayer layer;
  std::string to_prove;
  std::string finding;
};

struct Chain {
  std::vector<Layer> layers;
  void Add(model::LayerKind kind, std::string name, model::LayerEffect effect, std::string reason,
           std::string finding = "", std::string to_prove = "") {
    layers.push_back({{kind, std::move(name), effect, std::move(reason)},
                      std::move(to_prove),
                      std::move(finding)});
  }
};

bool HasFinding(const model::Target& t, std::string_view code, bool warn_or_worse = false) {
  return std::any_of(t.findings.begin(), t.findings.end(), [&](const model::Finding& f) {
    return f.code == code && (!warn_or_worse || f.severity != model::Severity::kInfo);
  });
}

void Preload(const model::Context& c, Chain& chain) {
  if (c.ld_preload.empty()) return;
  if (c.ld_preload.find("eatmydata") != std::string::npos) {
    chain.Add(model::LayerKind::kPreload, c.ld_preload, model::LayerEffect::kVoids,
              "the preloaded libeatmydata turns every sync into a no-op",
              model::codes::kLdPreloadEatmydata);
    return;
  }
  chain.Add(model::LayerKind::kPreload, c.ld_preload, model::LayerEffect::kUnknown,
            "a preloaded library can intercept sync calls before they reach the kernel",
            model::codes::kLdPreloadSet,
            "run without LD_PRELOAD, or make sure the library leaves fsync and fdatasync alone");
}

// The filesystem the data lands on: fstype with the mount's options.
void Filesystem(const std::string& fstype, const MountInfo& m, const std::string& where,
                Chain& chain) {
  std::string name = fmt::format("{} ({})", fstype, where);
  if (IsMemoryFs(fstype)) {
    chain.Add(model::LayerKind::kFilesystem, name, model::LayerEffect::kVoids,
              fmt::format("{} keeps files in memory only: a sync returns at once and nothing "
                          "survives a power cut",
                          fstype),
              model::codes::kSyncNoopMemoryFs);
  } else if (fstype == "fuse.fuse-overlayfs") {
    bool off = OptionValue(m.options, "fsync") == "0";
    chain.Add(
        model::LayerKind::kFilesystem, name,
        off ? model::LayerEffect::kVoids : model::LayerEffect::kUnknown,
        off ? "fuse-overlayfs runs with fsync=0: every sync is a no-op"
            : "fuse-overlayfs may run with fsync=0, which mountinfo does not show",
        off ? model::codes::kFuseOverlayfsFsyncDisabled : model::codes::kFuseOverlayfsFsyncUnknown,
        "check the fuse-overlayfs command line (ps) or storage.conf's mountopt for fsync=0");
  } else if (fstype == "zfs") {
    bool off = OptionValue(m.options, "sync") == "disabled";
    chain.Add(model::LayerKind::kFilesystem, name,
              off ? model::LayerEffect::kVoids : model::LayerEffect::kUnknown,
              off ? "the dataset has sync=disabled: fsync returns before data is on disk"
                  : "ZFS's sync property is not visible in the mount options",
              off ? model::codes::kZfsSyncDisabled : model::codes::kZfsSyncNotVisible,
              fmt::format("run `zfs get sync {}`: standard or always keeps syncs", m.source));
  } else if (IsNetworkFs(fstype)) {
    chain.Add(model::LayerKind::kNetwork, name, model::LayerEffect::kUnknown,
              "a server acknowledges each sync and may do so before the data is on its disk "
              "(an NFS export with async, a cache on the server)",
              fstype.starts_with("nfs") ? model::codes::kNfsServerAsyncUnknown : "",
              "check the server's export or share options (sync, no write-back cache), or run "
              "durprobe on the server against the exported directory");
  } else if (fstype == "virtiofs") {
    chain.Add(model::LayerKind::kNetwork, name, model::LayerEffect::kUnknown,
              "the host's virtiofsd serves each sync; its cache mode and the host's storage "
              "decide whether it reaches media",
              "", "run durprobe on the host against the shared directory");
  } else if (fstype.starts_with("fuse")) {
    chain.Add(model::LayerKind::kFilesystem, name, model::LayerEffect::kUnknown,
              "a user-space FUSE server decides what a sync does", "",
              "run durprobe on the filesystem the FUSE server stores its files on, and check "
              "that the server passes fsync on");
  } else if (BarrierOff(m)) {
    chain.Add(model::LayerKind::kFilesystem, name, model::LayerEffect::kVoids,
              "mounted without barriers: syncs no longer flush the device's write cache",
              model::codes::kBarrierDisabled);
  } else {
    chain.Add(
        model::LayerKind::kFilesystem, name, model::LayerEffect::kPasses,
        fmt::format("{} commits its journal or log on a sync and flushes the device", fstype));
  }
}

void Device(const MountInfo& m, Chain& chain) {
  const platform::DeviceInfo& d = *m.device;
  std::string name = d.disk.empty() || d.disk == d.name ? d.name : d.name + " on " + d.disk;
  if (d.write_cache == "write through") {
    chain.Add(model::LayerKind::kDevice, name, model::LayerEffect::kPasses,
              "write-through cache: a write is on media when the device acknowledges it");
  } else if (d.write_cache == "write back" && d.fua == true) {
    chain.Add(model::LayerKind::kDevice, name, model::LayerEffect::kPasses,
              "volatile write cache with FUA: syncs end in FUA writes and cache flushes");
  } else if (d.write_cache == "write back") {
    chain.Add(model::LayerKind::kDevice, name, model::LayerEffect::kUnknown,
              "volatile write cache without FUA: every sync ends in a cache flush, durable only "
              "if the device (or a virtual disk's host) honours it",
              model::codes::kVolatileWriteCacheNoFua,
              "a power-cut test, or the drive's power-loss protection or the virtual disk's cache "
              "mode in writing");
  } else {
    chain.Add(model::LayerKind::kDevice, name, model::LayerEffect::kUnknown,
              "the device's write cache mode is not visible", "",
              "read /sys/block/DISK/queue/write_cache on the host");
  }
}

void Mount(const MountInfo& m, int depth, Chain& chain) {
  std::string where = m.mount_point.empty() ? m.path : m.mount_point;
  bool block_fs = true;
  if (m.overlay) {
    const platform::OverlayInfo& o = *m.overlay;
    if (o.volatile_mount) {
      chain.Add(model::LayerKind::kOverlay, "overlay at " + where, model::LayerEffect::kVoids,
                "mounted volatile (fsync=volatile): the overlay skips every sync of its upper "
                "layer",
                model::codes::kOverlayVolatile);
      return;
    }
    if (!o.upper_visible) {
      chain.Add(model::LayerKind::kOverlay, "overlay at " + where, model::LayerEffect::kUnknown,
                "the upper layer, where writes land, is not visible from here", "",
                "mount a volume for the data, or run durprobe on the host against the upper "
                "directory");
      return;
    }
    chain.Add(
        model::LayerKind::kOverlay, "overlay at " + where, model::LayerEffect::kPasses,
        fmt::format("writes land in the upper layer {} and its syncs are passed on", o.upper_dir));
    Filesystem(o.upper_fstype, m, o.upper_mount_point, chain);
  } else {
    Filesystem(m.fstype, m, where, chain);
    platform::FsKind kind = platform::KindOf(m.fstype);
    block_fs = !kind.memory && !kind.served();
  }
  if (chain.layers.back().layer.effect == model::LayerEffect::kVoids || !block_fs) return;
  if (!m.device) {
    chain.Add(model::LayerKind::kDevice, "unknown", model::LayerEffect::kUnknown,
              fmt::format("the block device is not identified ({})",
                          m.device_note.empty() ? "no reason given" : m.device_note),
              "", "run durprobe where /sys/class/block describes the device (on the host)");
    return;
  }
  if (m.device->kind != "loop") {
    Device(m, chain);
    return;
  }
  const platform::DeviceInfo& d = *m.device;
  if (m.backing.empty() || depth >= kMaxChain) {
    chain.Add(model::LayerKind::kLoop, d.name, model::LayerEffect::kUnknown,
              fmt::format("the loop device's backing file {} cannot be followed from here",
                          d.backing_file.empty() ? "(unnamed)" : d.backing_file),
              model::codes::kLoopDevice,
              "run durprobe on the filesystem that holds the backing file");
    return;
  }
  chain.Add(model::LayerKind::kLoop, fmt::format("{} backed by {}", d.name, d.backing_file),
            model::LayerEffect::kPasses, "each sync is passed on as a sync of the backing file",
            model::codes::kLoopDevice);
  Mount(m.backing.front(), depth + 1, chain);
}

// The probes' evidence: what a sync costs next to a write.
void Measured(const model::Target& t, Chain& chain) {
  if (HasFinding(t, model::codes::kSyncNoopSuspected, true)) {
    chain.Add(model::LayerKind::kMeasured, "sync cost", model::LayerEffect::kVoids,
              "syncs cost no more than a plain write (measured): they do not reach stable "
              "storage, whatever the layers above say",
              model::codes::kSyncNoopSuspected);
  }
  for (const probes::ProbeResult& r : t.probes) {
    if (r.spec.primitive != probes::Primitive::kDirFsync || r.outcome != probes::Outcome::kOk ||
        r.ops == 0 || static_cast<double>(r.latency.p50) >= kNoopAddedNs ||
        r.device_flushes.PerOp() >= kReachesPerOp) {  // the device saw its flushes
      continue;
    }
    chain.Add(model::LayerKind::kMeasured, "directory sync cost", model::LayerEffect::kUnknown,
              fmt::format("a directory sync takes {} (p50), too little to reach a disk: new file "
                          "names may not survive a power cut",
                          text::FormatNanos(static_cast<double>(r.latency.p50))),
              "", "a power-cut test of file creation");
    break;
  }
  if (HasFinding(t, model::codes::kSyncFasterThanDevice)) {
    chain.Add(model::LayerKind::kMeasured, "flush cost", model::LayerEffect::kUnknown,
              "syncs finish faster than the device can flush its cache (measured): a cache that "
              "may not survive power loss absorbs them",
              model::codes::kSyncFasterThanDevice, "a power-cut test");
  }
}

// Whether the storage sits behind a network (a flush on no local disk proves nothing there).
bool RemoteStorage(const model::Target& t) {
  return t.mount && platform::KindOf(t.mount->fstype).remote();
}

std::string PrimitiveList(const std::vector<SyncFlushes>& evidence, FlushReach reach) {
  std::vector<std::string> names;
  for (const SyncFlushes* e : FirstOfEachPrimitive(evidence, reach)) {
    names.push_back(fmt::format("{} {:.2f}", probes::NameOf(e->spec.primitive), e->per_op));
  }
  return fmt::format("{}", fmt::join(names, ", "));
}

// The device counters' evidence: what each durable probe's syncs did on the devices.
void DeviceFlushes(const model::Target& t, Chain& chain) {
  const std::vector<SyncFlushes> evidence = SyncFlushEvidence(t);
  if (evidence.empty()) return;
  auto any = [&](FlushReach r) {
    return std::any_of(evidence.begin(), evidence.end(),
                       [&](const SyncFlushes& e) { return e.reach == r; });
  };
  std::string device;
  for (const SyncFlushes& e : evidence) {
    if (e.reach == FlushReach::kReaches && device.empty()) device = e.device;
  }
  if (any(FlushReach::kNone) || any(FlushReach::kSome)) {
    const std::string none = NoFlushSummary(evidence);
    if (RemoteStorage(t)) {
      chain.Add(model::LayerKind::kFlushes, "flush counters", model::LayerEffect::kUnknown,
                none + " on any local disk; the storage is remote, so that proves nothing", "",
                "check the server's own sync handling (its export options), or run durprobe on "
                "the server");
    } else {
      chain.Add(model::LayerKind::kFlushes, "flush counters", model::LayerEffect::kVoids,
                none +
                    ", while plain writes stay cached: those syncs do not reach stable "
                    "storage",
                model::codes::kSyncReachesNoDevice);
    }
    return;
  }
  if (any(FlushReach::kPartly) || any(FlushReach::kMayUseFua)) {
    chain.Add(model::LayerKind::kFlushes, "flush counters", model::LayerEffect::kUnknown,
              any(FlushReach::kPartly)
                  ? fmt::format("some syncs reached no device, or the device was too busy to "
                                "tell: {} flushes per sync after the background",
                                PrimitiveList(evidence, FlushReach::kPartly))
                  : "O_DIRECT writes on a device with FUA may flush as they go, which the "
                    "counters do not count",
              "", "a power-cut test (durprobe crashtest)");
    return;
  }
  if (any(FlushReach::kWritesFlush) && !any(FlushReach::kReaches)) {
    chain.Add(model::LayerKind::kFlushes, "flush counters", model::LayerEffect::kPasses,
              "plain writes flush the device by themselves (a sync mount or O_DSYNC): each "
              "write is durable as it returns");
    return;
  }
  chain.Add(model::LayerKind::kFlushes, fmt::format("flush counters on {}", device),
            model::LayerEffect::kPasses,
            fmt::format("every sync reached the device: {} flushes per sync{}",
                        PrimitiveList(evidence, FlushReach::kReaches),
                        any(FlushReach::kWritesFlush)
                            ? "; plain writes flush by themselves too (a sync mount)"
                            : ""));
}

// The crash states of the path's own filesystem on an honest device: whether the settings
// SQLite documents as keeping their commits kept them through every power cut tried.
void CrashTested(const model::Target& t, Chain& chain) {
  const std::vector<const sqlite_bench::CrashtestResult*> rows = PathCrashtests(t);
  if (rows.empty()) return;
  std::uint64_t states = 0;
  std::vector<std::string> beyond;
  for (const sqlite_bench::CrashtestResult* r : rows) {
    states += r->states;
    if (!AsDocumented(*r)) {
      beyond.push_back(fmt::format(
          "{}/{} {} in {} of {} states", sqlite_bench::NameOf(r->config.journal),
          sqlite_bench::NameOf(r->config.sync), r->corrupt > 0 ? "was corrupt" : "lost commits",
          r->corrupt > 0 ? r->corrupt : r->lost_states, r->states));
    }
  }
  const sqlite_bench::CrashtestResult& first = *rows.front();
  const std::string name = fmt::format("crashtest of {}{} on the crash device", first.fs,
                                       first.fs_options.empty() ? "" : " -o " + first.fs_options);
  if (!beyond.empty()) {
    chain.Add(model::LayerKind::kCrashTest, name, model::LayerEffect::kVoids,
              fmt::format("with a device that keeps every flush, {}: more than SQLite documents "
                          "for those settings, so this filesystem as mounted does not keep "
                          "what a sync returned for",
                          fmt::join(beyond, "; ")));
    return;
  }
  chain.Add(model::LayerKind::kCrashTest, name, model::LayerEffect::kPasses,
            fmt::format("crash-tested: {} states, and no setting lost more than SQLite documents "
                        "for it (it proves the filesystem's recovery, not the real device)",
                        text::CountText(states)));
}

// A power-cut test on this path's device and filesystem (--evidence): a passed one sees through
// the device's cache, so an unknown device layer passes; a failed one voids the device layer
// (added when the chain has none), whatever the layers above say.
void PowerCut(const model::Target& t, Chain& chain) {
  if (!t.powercut) return;
  const model::PowercutEvidence& e = *t.powercut;
  const bool passed = PowercutVerdictOf(e) == model::PowercutVerdict::kPassed;
  for (Layer& l : chain.layers) {
    if (l.layer.kind != model::LayerKind::kDevice) continue;
    if (passed && l.layer.effect == model::LayerEffect::kUnknown) {
      l.layer.effect = model::LayerEffect::kPasses;
      l.layer.reason = PowercutLayerReason(e);
      l.finding.clear();
      l.to_prove.clear();
    } else if (!passed) {
      l.layer.effect = model::LayerEffect::kVoids;
      l.layer.reason = PowercutLayerReason(e);
      l.finding.clear();
      l.to_prove.clear();
    }
    return;
  }
  if (!passed) {
    chain.Add(model::LayerKind::kDevice, e.disk.empty() ? e.device : e.disk,
              model::LayerEffect::kVoids, PowercutLayerReason(e));
  }
}

}  // namespace

model::Durability DurabilityOf(const model::Target& target, const model::Context& context) {
  Chain chain;
  Preload(context, chain);
  if (target.mount) {
    Mount(*target.mount, 0, chain);
  } else {
    chain.Add(model::LayerKind::kFilesystem, "unknown", model::LayerEffect::kUnknown,
              "the mount was not identified", "", "durprobe inspect PATH says why");
  }
  Measured(target, chain);
  DeviceFlushes(target, chain);
  CrashTested(target, chain);
  PowerCut(target, chain);
  model::Durability d;
  const Layer* voids = nullptr;
  const Layer* unknown = nullptr;
  for (const Layer& l : chain.layers) {
    if (l.layer.effect == model::LayerEffect::kVoids && voids == nullptr) voids = &l;
    if (l.layer.effect == model::LayerEffect::kUnknown && unknown == nullptr) unknown = &l;
    d.layers.push_back(l.layer);
  }
  if (const Layer* decider = voids != nullptr ? voids : unknown) {
    d.verdict = voids != nullptr ? model::DurabilityVerdict::kNotDurable
                                 : model::DurabilityVerdict::kUnproven;
    d.deciding_layer = decider->layer.kind;
    d.reason = fmt::format("{} ({}): {}", NameOf(decider->layer.kind), decider->layer.name,
                           decider->layer.reason);
    if (voids == nullptr) d.to_prove = decider->to_prove;
    if (!decider->finding.empty()) d.findings.push_back(decider->finding);
    return d;
  }
  d.verdict = model::DurabilityVerdict::kDurable;
  d.reason = "every layer passes syncs on to stable media, as far as can be seen";
  if (target.powercut) d.reason += "; device " + PowercutLayerReason(*target.powercut);
  return d;
}

void AssessDurability(model::Target& target, const model::Context& context) {
  target.durability = DurabilityOf(target, context);
}

}  // namespace durprobe::analysis
