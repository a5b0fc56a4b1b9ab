#include "explain/cause_matchers.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "analysis/mount_findings.h"
#include "platform/container.h"
#include "platform/fs_kinds.h"
#include "platform/mountinfo.h"
#include "text/shell_quote.h"
#include "text/units.h"

namespace durprobe::explain::matchers {
namespace {

using platform::MountInfo;

using platform::IsMemoryFs;
using platform::IsNetworkFs;

// A layer between the path and a local disk: overlay, a served or memory filesystem.
bool IsLayerFs(const std::string& t) {
  platform::FsKind kind = platform::KindOf(t);
  return t == "overlay" || kind.served() || kind.memory;
}

// The one side whose mount satisfies has (and the other's does not), or -1. Both mounts known.
int OneSide(const CausePair& p, const std::function<bool(const MountInfo&)>& has) {
  if (p.mount[0] == nullptr || p.mount[1] == nullptr) return -1;
  bool a = has(*p.mount[0]), b = has(*p.mount[1]);
  return a == b ? -1 : (a ? 0 : 1);
}

// Sets the side and the difference in words ("b is on overlay").
bool Mark(const CausePair& p, CauseMatch& m, int side, const std::string& what) {
  if (side < 0) return false;
  m.side = side;
  m.what = fmt::format("{} {}", p.Name(side), what);
  return true;
}

const platform::DeviceInfo* DeviceOf(const CausePair& p, int side) {
  return p.mount[side] && p.mount[side]->device ? &*p.mount[side]->device : nullptr;
}

bool BothDevices(const CausePair& p) { return DeviceOf(p, 0) && DeviceOf(p, 1); }

bool SameFstype(const CausePair& p) {
  return p.mount[0] && p.mount[1] && p.mount[0]->fstype == p.mount[1]->fstype;
}

std::string Option(const MountInfo& m, const char* key, const char* fallback) {
  return platform::OptionValue(m.options, key).value_or(fallback);
}

// The path under a layer's source that the layered path shows (a FUSE mount of a directory).
std::string BelowLayer(const MountInfo& m, const std::string& path, const std::string& under) {
  std::string rel = path.starts_with(m.mount_point) ? path.substr(m.mount_point.size()) : "";
  if (!rel.empty() && rel.front() != '/') rel.clear();
  return under + rel;
}

Trial ComparePaths(const std::string& layered, const std::string& under) {
  return {TrialKind::kComparePaths,
          fmt::format("durprobe compare --no-sqlite {} {}", text::ShellQuote(layered),
                      text::ShellQuote(under)),
          {layered, under},
          ""};
}

// A mount option's test on the path: DELETE/FULL, which creates and deletes its journal at
// each commit, against WAL/FULL.
Trial SqliteWal(const std::string& path) {
  return {TrialKind::kSqliteWal,
          fmt::format("durprobe sqlite --journal-modes delete,wal --synchronous full {}",
                      text::ShellQuote(path)),
          {path},
          ""};
}

// The contexts' fields themselves (diff; compare's paths share one context and pass none), so a
// field renamed in model/ fails to compile here rather than leave the cause without evidence.
bool ContextsDiffer(const CausePair& p,
                    bool (*differ)(const model::Context&, const model::Context&)) {
  if (p.in->context_a == nullptr || p.in->context_b == nullptr) return false;
  return differ(*p.in->context_a, *p.in->context_b);
}

}  // namespace

bool Tmpfs(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) { return IsMemoryFs(x.fstype); });
  return s >= 0 && Mark(p, m, s, "is in memory (" + p.mount[s]->fstype + ")");
}

bool Overlay(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) { return x.fstype == "overlay"; });
  if (s < 0) return false;
  const MountInfo& o = *p.mount[s];
  if (o.overlay && o.overlay->upper_visible && !o.overlay->upper_mount_point.empty()) {
    m.trial = ComparePaths(p.target[s]->path, o.overlay->upper_mount_point);
  }
  std::string upper = o.overlay && !o.overlay->upper_fstype.empty()
                          ? " (upper layer on " + o.overlay->upper_fstype + ")"
                          : "";
  return Mark(p, m, s, "is on an overlayfs" + upper);
}

bool Fuse(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) { return x.fstype.starts_with("fuse"); });
  if (s < 0) return false;
  const MountInfo& f = *p.mount[s];
  if (f.source.starts_with("/"))
    m.trial = ComparePaths(p.target[s]->path, BelowLayer(f, p.target[s]->path, f.source));
  return Mark(p, m, s,
              fmt::format("is a FUSE mount ({})", f.fs_subtype.empty() ? f.fstype : f.fs_subtype));
}

bool Virtiofs(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) { return x.fstype == "virtiofs"; });
  return Mark(p, m, s, "is a virtiofs host share");
}

bool NineP(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) { return x.fstype == "9p"; });
  return Mark(p, m, s, "is a 9p host share");
}

bool NetworkFs(const CausePair& p, CauseMatch& m) {
  // A host share (9p) speaks a network protocol too, but has a cause of its own.
  int s = OneSide(p, [](const MountInfo& x) {
    return IsNetworkFs(x.fstype) && !platform::IsHostShare(x.fstype);
  });
  return s >= 0 && Mark(p, m, s, "is a network filesystem (" + p.mount[s]->fstype + ")");
}

bool BtrfsCow(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) { return x.fstype == "btrfs"; });
  if (s < 0 || IsLayerFs(p.mount[1 - s]->fstype)) return false;
  const std::string& path = p.target[s]->path;
  m.trial = {TrialKind::kNocowDir,
             fmt::format("mkdir {0} && chattr +C {0} && durprobe compare --no-sqlite {1} {0}",
                         text::ShellQuote(path + "/nocow"), text::ShellQuote(path)),
             {path},
             ""};
  return Mark(p, m, s, "is btrfs (copy-on-write, fsync through its log tree)");
}

bool Filesystem(const CausePair& p, CauseMatch& m) {
  if (p.mount[0] == nullptr || p.mount[1] == nullptr || SameFstype(p)) return false;
  const std::string &a = p.mount[0]->fstype, &b = p.mount[1]->fstype;
  if (IsLayerFs(a) || IsLayerFs(b) || a == "btrfs" || b == "btrfs") return false;
  m.what = fmt::format("{} is {}, {} is {}", p.Name(0), a, p.Name(1), b);
  m.advice = fmt::format(
      "{} syncs through {}; {} through {}: the filesystem's sync path sets the cost of each "
      "fsync, so pick the filesystem by this measurement for the database's volume, or tune "
      "that path (journal or log size and placement)",
      a, SyncPathOf(a), b, SyncPathOf(b));
  return true;
}

bool Ext4DataMode(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) {
    return x.fstype == "ext4" && Option(x, "data", "ordered") != "ordered";
  });
  return s >= 0 && Mark(p, m, s, "mounts ext4 with data=" + Option(*p.mount[s], "data", ""));
}

bool Barrier(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) { return analysis::BarrierOff(x); });
  if (s < 0) return false;
  m.trial = {std::nullopt,
             fmt::format("mount -o remount,barrier=1 {} && durprobe compare {} {}",
                         text::ShellQuote(p.mount[s]->mount_point),
                         text::ShellQuote(p.target[0]->path), text::ShellQuote(p.target[1]->path)),
             {},
             "it remounts a filesystem, so --try leaves it to you"};
  return Mark(p, m, s, "mounts with write barriers off (barrier=0 / nobarrier)");
}

bool CommitInterval(const CausePair& p, CauseMatch& m) {
  if (!SameFstype(p)) return false;
  std::string a = Option(*p.mount[0], "commit", "5"), b = Option(*p.mount[1], "commit", "5");
  if (a == b) return false;
  m.what = fmt::format("commit={} in {} against commit={} in {}", a, p.Name(0), b, p.Name(1));
  return true;
}

bool SyncMount(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) { return platform::HasOption(x.options, "sync"); });
  return Mark(p, m, s, "mounts with sync (every write is synchronous)");
}

bool Dirsync(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) { return platform::HasOption(x.options, "dirsync"); });
  if (s < 0) return false;
  m.trial = SqliteWal(p.target[s]->path);
  return Mark(p, m, s, "mounts with dirsync (directory changes are synchronous)");
}

bool Discard(const CausePair& p, CauseMatch& m) {
  if (!SameFstype(p)) return false;  // another filesystem's default says nothing
  int s = OneSide(p, [](const MountInfo& x) { return platform::HasOption(x.options, "discard"); });
  if (s < 0) return false;
  m.trial = SqliteWal(p.target[s]->path);
  return Mark(p, m, s, "mounts with online discard (each delete trims)");
}

bool Bind(const CausePair& p, CauseMatch& m) {
  int s = OneSide(p, [](const MountInfo& x) { return x.bind; });
  return Mark(p, m, s, "is a bind mount (a directory of a filesystem mounted elsewhere)");
}

bool Loop(const CausePair& p, CauseMatch& m) {
  if (!BothDevices(p)) return false;
  int s = OneSide(p, [](const MountInfo& x) { return x.device->kind == "loop"; });
  if (s < 0) return false;
  const platform::DeviceInfo& d = *p.mount[s]->device;
  if (!d.backing_mount_point.empty()) {
    m.trial = ComparePaths(p.target[s]->path, d.backing_mount_point);
  }
  return Mark(p, m, s,
              fmt::format("sits on a loop device backed by a file{}",
                          d.backing_fstype.empty() ? "" : " on " + d.backing_fstype));
}

bool LoopBacking(const CausePair& p, CauseMatch& m) {
  if (!BothDevices(p) || DeviceOf(p, 0)->kind != "loop" || DeviceOf(p, 1)->kind != "loop") {
    return false;
  }
  const std::string &a = DeviceOf(p, 0)->backing_fstype, &b = DeviceOf(p, 1)->backing_fstype;
  if (a == b || a.empty() || b.empty()) return false;
  m.what = fmt::format("{}'s loop device is backed by {}, {}'s by {}", p.Name(0), a, p.Name(1), b);
  return true;
}

bool WriteCache(const CausePair& p, CauseMatch& m) {
  if (!BothDevices(p)) return false;
  const std::string &a = DeviceOf(p, 0)->write_cache, &b = DeviceOf(p, 1)->write_cache;
  if (a.empty() || b.empty() || a == b) return false;
  int s = a == "write through" ? 0 : 1;
  return Mark(
      p, m, s,
      fmt::format("reports its write cache as {} (the other: {})", s == 0 ? a : b, s == 0 ? b : a));
}

bool Fua(const CausePair& p, CauseMatch& m) {
  if (!BothDevices(p) || !DeviceOf(p, 0)->fua || !DeviceOf(p, 1)->fua) return false;
  if (*DeviceOf(p, 0)->fua == *DeviceOf(p, 1)->fua) return false;
  return Mark(p, m, *DeviceOf(p, 0)->fua ? 0 : 1, "has FUA (Force Unit Access) writes");
}

bool Rotational(const CausePair& p, CauseMatch& m) {
  if (!BothDevices(p) || !DeviceOf(p, 0)->rotational || !DeviceOf(p, 1)->rotational) return false;
  if (*DeviceOf(p, 0)->rotational == *DeviceOf(p, 1)->rotational) return false;
  return Mark(p, m, *DeviceOf(p, 0)->rotational ? 0 : 1, "reports a rotational device");
}

bool QueueDepth(const CausePair& p, CauseMatch& m) {
  if (!BothDevices(p)) return false;
  std::uint64_t a = DeviceOf(p, 0)->queue_depth, b = DeviceOf(p, 1)->queue_depth;
  if (a == 0 || b == 0 || a == b) return false;
  m.what = fmt::format("queue depth (nr_requests) {} in {} against {} in {}", a, p.Name(0), b,
                       p.Name(1));
  return true;
}

bool Scheduler(const CausePair& p, CauseMatch& m) {
  if (!BothDevices(p)) return false;
  const std::string &a = DeviceOf(p, 0)->scheduler, &b = DeviceOf(p, 1)->scheduler;
  if (a.empty() || b.empty() || a == b) return false;
  m.what = fmt::format("I/O scheduler {} in {} against {} in {}", a, p.Name(0), b, p.Name(1));
  return true;
}

bool Drift(const CausePair& p, CauseMatch& m) {
  // The row's advice is to compare the paths interleaved in one run: compare already did.
  if (!p.in->separate_runs) {
    m.advice =
        "the device changed state (burst credits spent, a throttled virtual disk, a neighbour's "
        "I/O) while these paths shared their rounds: figures from its two states are not "
        "comparable; run the compare again with a longer --budget, at a quiet time, and check "
        "the volume's burst balance";
  }
  const SideState* s = p.sig->side;
  const std::optional<WithReference>& w = p.sig->with_reference;
  std::optional<double> ref = p.sig->ratio[static_cast<std::size_t>(Signal::kReference)];
  auto ratios = [&](const char* how) {
    return fmt::format("the probes {} the reference probe (ref ratio {}, probes ratio {})", how,
                       text::FormatRatio(w->reference), text::FormatRatio(w->probes));
  };
  if (w && w->proportional) {
    m.decided_by = ratios("moved with");
    return Mark(p, m, w->reference < 1 ? 0 : 1,
                "ran while its device was in a slower state (the reference probe)");
  }
  // The same probe costs the same in each of the device's states on both sides, and only the
  // mixture moved: the gap is the time each side spent in the slow state.
  const std::optional<double>& overwrite =
      p.sig->ratio[static_cast<std::size_t>(Signal::kOverwrite)];
  if (overwrite && std::fabs(std::log(*overwrite)) >= std::log(kMoveRatio) &&
      SameInEveryState(p.sig->states, kMoveRatio)) {
    const StateRatio& slow = p.sig->states.front();  // SameInEveryState: the slow state is there
    m.decided_by = "the same probe is about equal in each of the device's states (" +
                   StateRatiosText(p.sig->states) + ", " + p.Name(1) + " against " + p.Name(0) +
                   ")";
    const double share[2] = {slow.base_share, slow.here_share};  // a's, b's
    const int side = share[1] > share[0] ? 1 : 0;
    return Mark(p, m, side,
                fmt::format("spent {:.0f}% of its fdatasync overwrite's time in the device's slow "
                            "state, the other {:.0f}%",
                            share[side] * 100.0, share[1 - side] * 100.0));
  }
  // The side measured in the slower state is the slower one: by the reference probe where the
  // two levels compare (the same probe through the same kind of filesystem), else by the sync
  // probe both measured. Unknown: -1.
  int slower = -1;
  if (ref && std::fabs(std::log(*ref)) >= std::log(kMoveRatio)) {
    slower = *ref < 1 ? 0 : 1;
  } else if (overwrite && std::fabs(std::log(*overwrite)) >= std::log(kMoveRatio)) {
    slower = *overwrite < 1 ? 0 : 1;
  }
  if (s[0].drifted != s[1].drifted) {
    const int drifted = s[0].drifted ? 0 : 1;
    // A device that changed state on the faster side does not make the other side slower.
    if (slower >= 0 && slower != drifted) return false;
    return Mark(p, m, drifted, "saw its device change state during the run (latency_drift)");
  }
  // Two runs' reference levels apart are the state only from two runs: paths compared in one run
  // shared its rounds, so the gap between their references is the paths themselves.
  bool moved = p.in->separate_runs && ref && std::fabs(std::log(*ref)) >= std::log(kMoveRatio);
  if (!moved && !(s[0].drifted && s[1].drifted)) return false;
  if (w && w->apart) m.against = ratios("did not move with");
  return Mark(p, m, slower < 0 ? 1 : slower,
              "ran while its device was in a slower state (the reference probe)");
}

bool ContainerRole(const CausePair& p, CauseMatch& m) {
  if (p.mount[0] == nullptr || p.mount[1] == nullptr) return false;
  const std::optional<platform::PathRole>&a = p.mount[0]->container.path_role,
        &b = p.mount[1]->container.path_role;
  if (!a || !b || *a == *b) return false;
  m.what = fmt::format("the path is the container's {} in {} and its {} in {}", NameOf(*a),
                       p.Name(0), NameOf(*b), p.Name(1));
  bool overlay_root =
      *a == platform::PathRole::kOverlayRoot || *b == platform::PathRole::kOverlayRoot;
  m.advice = overlay_root
                 ? "a container's own filesystem (its overlay root) costs more per operation "
                   "than a volume; keep the database on a volume"
                 : "the role follows from the mount under the path (a volume, a bind from the "
                   "host, another mount): the cause ranked above it names that mount";
  return true;
}

bool SqliteBuild(const CausePair& p, CauseMatch& m) {
  if (!ContextsDiffer(p, [](const model::Context& a, const model::Context& b) {
        return a.sqlite_version != b.sqlite_version || !(a.sqlite_build == b.sqlite_build);
      })) {
    return false;
  }
  m.what = "SQLite's version or build options differ";
  return true;
}

bool Kernel(const CausePair& p, CauseMatch& m) {
  if (!ContextsDiffer(p, [](const model::Context& a, const model::Context& b) {
        return a.kernel != b.kernel;
      })) {
    return false;
  }
  m.what = fmt::format("{} and {} ran on different kernels", p.Name(0), p.Name(1));
  return true;
}

bool Preload(const CausePair& p, CauseMatch& m) {
  if (p.in->context_a == nullptr || p.in->context_b == nullptr) return false;
  const std::string &a = p.in->context_a->ld_preload, &b = p.in->context_b->ld_preload;
  if (a == b) return false;
  int s = a.empty() ? 1 : 0;
  return Mark(p, m, s, "ran with LD_PRELOAD=" + (s == 0 ? a : b));
}

}  // namespace durprobe::explain::matchers
