#include "analysis/mount_findings.h"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

#include "model/finding_codes.h"
#include "platform/mountinfo.h"

namespace durprobe::analysis {
namespace {

using platform::HasOption;
using platform::MountInfo;
using platform::OptionValue;

bool OneOf(std::string_view s, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

struct Findings {
  std::vector<model::Finding> list;
  void Add(model::Severity s, std::string code, std::string message) {
    list.push_back({s, std::move(code), std::move(message)});
  }
};

void SyncNoops(const MountInfo& m, Findings& f) {
  if (IsMemoryFs(m.fstype)) {
    f.Add(model::Severity::kFail, model::codes::kSyncNoopMemoryFs,
          fmt::format("{} keeps files in memory, so fsync returns at once and nothing survives a "
                      "reboot; put the database on a disk-backed filesystem.",
                      m.fstype));
  }
  if (m.overlay && IsMemoryFs(m.overlay->upper_fstype)) {
    f.Add(model::Severity::kFail, model::codes::kSyncNoopMemoryFs,
          fmt::format("the overlay's upper layer is on {} ({}), so syncs here reach only memory; "
                      "put the database on a volume backed by a disk.",
                      m.overlay->upper_fstype, m.overlay->upper_mount_point));
  }
  if (m.overlay && m.overlay->volatile_mount) {
    f.Add(model::Severity::kFail, model::codes::kOverlayVolatile,
          "the overlay is mounted with volatile, which skips every sync of its upper layer, so a "
          "crash can lose committed data; remove volatile or put the database on a volume.");
  }
  if (BarrierOff(m)) {
    std::optional<std::string> barrier = OptionValue(m.options, "barrier");
    f.Add(model::Severity::kFail, model::codes::kBarrierDisabled,
          fmt::format("{} is mounted with {}, so syncs no longer flush the device's write cache "
                      "and committed data can be lost on power failure; remount without it unless "
                      "the cache is battery- or capacitor-backed.",
                      m.fstype, barrier ? "barrier=" + *barrier : std::string("nobarrier")));
  }
  if (m.fstype == "fuse.fuse-overlayfs") {
    if (OptionValue(m.options, "fsync") == "0") {
      f.Add(model::Severity::kFail, model::codes::kFuseOverlayfsFsyncDisabled,
            "fuse-overlayfs runs with fsync=0, which turns every sync into a no-op; remove the "
            "option (storage.conf mountopt) or put the database on a volume.");
    } else {
      f.Add(model::Severity::kInfo, model::codes::kFuseOverlayfsFsyncUnknown,
            "fuse-overlayfs can run with fsync=0 (every sync a no-op) and mountinfo does not show "
            "it; check the fuse-overlayfs command line (ps) or storage.conf's mountopt.");
    }
  }
  if (m.fstype == "zfs") {
    if (OptionValue(m.options, "sync") == "disabled") {
      f.Add(model::Severity::kFail, model::codes::kZfsSyncDisabled,
            "the ZFS dataset has sync=disabled, so every fsync returns before data is on disk; "
            "set sync=standard on the dataset.");
    } else {
      f.Add(model::Severity::kInfo, model::codes::kZfsSyncNotVisible,
            fmt::format("ZFS's sync property is not in the mount options; run `zfs get sync {}` "
                        "and make sure it is not disabled.",
                        m.source));
    }
  }
  if (m.fstype == "nfs" || m.fstype == "nfs4") {
    f.Add(model::Severity::kInfo, model::codes::kNfsServerAsyncUnknown,
          "whether the NFS server exports this with async (acknowledging writes before they are "
          "on its disk) cannot be seen from the client; check that the export has sync.");
  }
}

void Layers(const MountInfo& m, Findings& f) {
  if (IsNetworkFs(m.fstype)) {
    f.Add(model::Severity::kWarn, model::codes::kNetworkFsSqliteLocking,
          fmt::format("SQLite's file locking is not reliable on {} across hosts, so two hosts "
                      "writing one database can corrupt it; keep a single writing host or use a "
                      "local disk.",
                      m.fstype));
  }
  if (platform::FsKind kind = platform::KindOf(m.fstype); kind.fuse || kind.host_share) {
    f.Add(model::Severity::kInfo, model::codes::kPerOperationPenalty,
          fmt::format("on {} every file operation crosses into a user-space server or to the "
                      "host, so expect a cost per operation on top of each sync; compare with a "
                      "local volume (durprobe compare).",
                      m.fstype));
  }
}

void JournalOptions(const MountInfo& m, Findings& f) {
  std::optional<std::string> data = OptionValue(m.options, "data");
  if (OneOf(m.fstype, {"ext3", "ext4"}) && data == "journal") {
    f.Add(model::Severity::kInfo, model::codes::kExt4DataJournal,
          "data=journal writes every data block twice (journal, then in place): syncs stay "
          "durable but large writes cost double; expected if chosen for small-sync latency.");
  }
  if (OneOf(m.fstype, {"ext3", "ext4"}) && data == "writeback") {
    f.Add(model::Severity::kWarn, model::codes::kExt4DataWriteback,
          "data=writeback does not write data before the metadata that points to it, so after a "
          "crash files written without fsync can hold stale blocks; use data=ordered unless every "
          "writer syncs.");
  }
  if (std::optional<std::string> commit = OptionValue(m.options, "commit")) {
    f.Add(model::Severity::kInfo, model::codes::kJournalCommitInterval,
          fmt::format("commit={} changes how often the filesystem commits on its own; an explicit "
                      "sync still commits at once, so only unsynced writes are affected.",
                      *commit));
  }
  if (HasOption(m.options, "sync")) {
    f.Add(model::Severity::kInfo, model::codes::kSyncMount,
          "mounted sync: every write waits for the disk, so writes are slow and an explicit sync "
          "adds little; compare commit rates with hosts mounted the same way.");
  }
  if (HasOption(m.options, "dirsync")) {
    f.Add(model::Severity::kInfo, model::codes::kDirsyncMount,
          "mounted dirsync: creating, renaming and deleting files wait for the disk, so journal "
          "file churn (SQLite's DELETE mode) costs more than elsewhere.");
  }
  if (HasOption(m.mount_options, "ro")) {
    f.Add(
        model::Severity::kInfo, model::codes::kReadOnlyMount,
        "the mount is read-only, so no write or sync can be measured here; pick a writable path.");
  }
}

void Device(const MountInfo& m, Findings& f) {
  if (!m.device) return;
  const platform::DeviceInfo& d = *m.device;
  if (d.kind == "loop") {
    f.Add(model::Severity::kInfo, model::codes::kLoopDevice,
          fmt::format("the filesystem sits on {} backed by {}{}, so each sync also syncs that file "
                      "and durability is the backing filesystem's.",
                      d.name, d.backing_file.empty() ? "a file" : d.backing_file,
                      d.backing_fstype.empty() ? "" : " on " + d.backing_fstype));
    // What voids durability under the backing file voids it here too.
    if (m.backing.empty()) return;
    for (const model::Finding& below : MountFindings(m.backing.front())) {
      if (below.severity != model::Severity::kFail) continue;
      f.Add(model::Severity::kFail, model::codes::kLoopBackingNotDurable,
            fmt::format("{} is backed by {} on {}, and there {}", d.name, d.backing_file,
                        m.backing.front().fstype, below.message));
      break;
    }
    return;
  }
  if (d.write_cache == "write back" && d.fua == false) {
    f.Add(model::Severity::kWarn, model::codes::kVolatileWriteCacheNoFua,
          fmt::format("{} has a volatile write cache and no FUA, so every sync ends in a full "
                      "cache flush and is durable only if the device honours it; check the "
                      "drive's power-loss protection or the virtual disk's cache mode.",
                      d.disk));
  }
}

}  // namespace

bool BarrierOff(const platform::MountInfo& m) {
  std::optional<std::string> barrier = OptionValue(m.options, "barrier");
  return HasOption(m.options, "nobarrier") || barrier == "0" || barrier == "off";
}

std::vector<model::Finding> MountFindings(const MountInfo& m) {
  Findings f;
  SyncNoops(m, f);
  Layers(m, f);
  JournalOptions(m, f);
  Device(m, f);
  if (m.statfs_agrees == false) {
    f.Add(model::Severity::kInfo, model::codes::kStatfsMismatch,
          fmt::format("statfs reports {} while mountinfo says {}, so a layer may sit between the "
                      "path and the filesystem; treat the identification with care.",
                      m.statfs_type, m.fstype));
  }
  return f.list;
}

std::vector<model::Finding> EnvironmentFindings(const model::Context& c) {
  Findings f;
  if (c.ld_preload.empty()) return f.list;
  if (c.ld_preload.find("eatmydata") != std::string::npos) {
    f.Add(model::Severity::kFail, model::codes::kLdPreloadEatmydata,
          fmt::format("LD_PRELOAD loads {}, which turns fsync into a no-op; unset LD_PRELOAD "
                      "before measuring or running a database.",
                      c.ld_preload));
  } else {
    f.Add(model::Severity::kWarn, model::codes::kLdPreloadSet,
          fmt::format("LD_PRELOAD loads {}, which can intercept sync calls; make sure it does not "
                      "change them, or unset it.",
                      c.ld_preload));
  }
  return f.list;
}

StorageFacts StorageFactsOf(const MountInfo& m) {
  StorageFacts facts;
  if (m.device) {
    if (m.device->kind == "loop") return facts;
    facts.known = true;
    facts.block_backed = true;
    facts.rotational = m.device->rotational.value_or(false);
    facts.volatile_cache = m.device->write_cache == "write back";
    facts.fua = m.device->fua.value_or(false);
    return facts;
  }
  // No device because none exists (memory, network, FUSE), not because it was not found.
  bool deviceless = m.dev_major == 0 && !m.source.starts_with("/dev/") && !m.overlay;
  facts.known = deviceless;
  return facts;
}

}  // namespace durprobe::analysis
