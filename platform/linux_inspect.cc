// Linux identification: /proc/self/mountinfo for the mount, statfs for the magic, sysfs for the
// device, /.dockerenv and cgroups for the container. Every read goes through the Platform.
#include <fmt/format.h>

#include "platform/container.h"
#include "platform/fs_magic.h"
#include "platform/inspect.h"
#include "platform/mountinfo.h"
#include "platform/sysfs_block.h"

namespace durprobe::platform {
namespace {

constexpr std::size_t kMaxMountInfoBytes = 16 << 20;  // large Kubernetes nodes list thousands

std::string Join(const std::string& root, const std::string& rest) {
  if (root.empty() || root == "/") return rest;
  return root.back() == '/' ? root + rest.substr(1) : root + rest;
}

// The mount holding path when path exists in this mount namespace, else nullptr.
const MountEntry* Locate(Platform& p, const std::vector<MountEntry>& table,
                         const std::string& path) {
  if (path.empty() || p.KindOf(path) == PathKind::kMissing) return nullptr;
  Result<std::string> real = p.RealPath(path);
  return real.ok() ? FindMount(table, *real) : nullptr;
}

// A loop device's backing file as a path: the kernel marks one that was unlinked with
// " (deleted)", which the report keeps and a lookup must not.
std::string BackingPath(const DeviceInfo& d) {
  std::string file = d.backing_file;
  if (file.ends_with(" (deleted)")) file.resize(file.size() - 10);
  return file;
}

void AddStatfs(Platform& p, MountInfo& m) {
  Result<FsStat> st = p.StatFs(m.path);
  if (!st.ok()) {
    m.notes.push_back("statfs failed: " + st.status().message());
    return;
  }
  m.statfs_known = true;
  m.statfs_magic = st->magic;
  m.statfs_type = std::string(FsTypeOfMagic(st->magic));
  m.statfs_agrees = MagicAgrees(m.fstype, st->magic);
  if (m.statfs_agrees == false) {
    m.notes.push_back(fmt::format("statfs reports magic {:#x} ({}) but mountinfo says {}",
                                  st->magic, m.statfs_type, m.fstype));
  }
}

void AddUpperLayer(Platform& p, const std::vector<MountEntry>& table, OverlayInfo& o,
                   const MountEntry** upper_mount) {
  const MountEntry* e = Locate(p, table, o.upper_dir);
  if (e == nullptr) return;
  o.upper_visible = true;
  o.upper_fstype = e->fstype;
  o.upper_mount_point = e->mount_point;
  o.upper_source = e->source;
  *upper_mount = e;
}

// The block device numbers behind a mount entry: its own st_dev, or, when that is anonymous
// (btrfs, or any 0:N), the device node named as its source.
bool BlockDevOf(Platform& p, const MountEntry& e, unsigned& major, unsigned& minor,
                std::string& how) {
  if (e.major != 0) {
    major = e.major;
    minor = e.minor;
    return true;
  }
  if (!e.source.starts_with("/dev/")) return false;
  Result<FileStat> st = p.Stat(e.source);
  if (!st.ok() || !st->is_block_device) return false;
  major = st->rdev_major;
  minor = st->rdev_minor;
  how = fmt::format(
      "found through the source {}: the mount's own device number {}:{} is "
      "anonymous",
      e.source, e.major, e.minor);
  return true;
}

void AddDevice(Platform& p, const InspectRoots& roots, const std::vector<MountEntry>& table,
               const MountEntry& entry, const MountEntry* upper_mount, MountInfo& m) {
  const MountEntry* holder = &entry;
  std::string how;
  if (m.overlay && upper_mount != nullptr) {
    holder = upper_mount;
    how = fmt::format("the device under the overlay's upper layer ({} on {}), where writes land",
                      upper_mount->fstype, upper_mount->mount_point);
  }
  unsigned major = 0, minor = 0;
  std::string found_via;
  if (!BlockDevOf(p, *holder, major, minor, found_via)) {
    m.device_note = m.overlay && upper_mount == nullptr
                        ? "overlay whose upper layer is not visible here: device unknown"
                        : fmt::format(
                              "no block device: {} on {} is a memory, network, FUSE or "
                              "pseudo filesystem",
                              holder->fstype, holder->source);
    return;
  }
  std::string via_class;
  Result<DeviceInfo> d = DescribeBlockDevice(p, roots.sys, major, minor, &via_class);
  if (!d.ok()) {
    m.device_note = d.status().message();
    return;
  }
  if (!d->backing_file.empty()) {
    if (const MountEntry* b = Locate(p, table, BackingPath(*d))) {
      d->backing_fstype = b->fstype;
      d->backing_mount_point = b->mount_point;
    }
  }
  m.device = std::move(*d);
  std::string note = !how.empty() ? how : found_via;
  if (!via_class.empty()) note = note.empty() ? via_class : note + "; " + via_class;
  m.device_note = note;
}

ContainerInfo Container(Platform& p, const InspectRoots& roots,
                        const std::vector<MountEntry>& table) {
  ContainerEvidence ev;
  ev.dockerenv = p.KindOf(Join(roots.root, "/.dockerenv")) != PathKind::kMissing;
  ev.containerenv = p.KindOf(Join(roots.root, "/run/.containerenv")) != PathKind::kMissing;
  if (Result<std::string> t = p.ReadTextFile(roots.proc + "/1/cgroup", 65536); t.ok()) {
    ev.init_cgroup = *t;
  }
  if (Result<std::string> t = p.ReadTextFile(roots.proc + "/self/cgroup", 65536); t.ok()) {
    ev.self_cgroup = *t;
  }
  ev.container_env = p.GetEnv("container");
  ev.kubernetes_env = !p.GetEnv("KUBERNETES_SERVICE_HOST").empty();
  if (const MountEntry* root = FindMount(table, "/")) ev.root_fstype = root->fstype;
  return DetectContainer(ev);
}

constexpr int kMaxBackingDepth = 8;  // a loop device on a file on a loop device on ...

// What every level of one inspection shares: the mount table, read once, and the container.
struct Seen {
  std::string mountinfo_path;
  std::vector<MountEntry> table;
  ContainerInfo container;
};

// real: a path RealPath resolved.
Result<MountInfo> Inspect(Platform& p, const std::string& real, const InspectRoots& roots,
                          const Seen& seen, int depth);

// A loop device's backing file, inspected like the path itself, so the durability of the chain
// is known down to the media. Not visible here (another mount namespace), or too deep: a note.
void AddBacking(Platform& p, const InspectRoots& roots, const Seen& seen, int depth, MountInfo& m) {
  if (!m.device || m.device->kind != "loop" || m.device->backing_file.empty()) return;
  std::string file = BackingPath(*m.device);
  if (depth >= kMaxBackingDepth) {
    m.notes.push_back(
        fmt::format("loop devices nest deeper than {}: {} not followed", kMaxBackingDepth, file));
    return;
  }
  if (p.KindOf(file) == PathKind::kMissing) {
    m.notes.push_back(fmt::format("the loop device's backing file {} is not visible here", file));
    return;
  }
  Result<std::string> real = p.RealPath(file);
  Result<MountInfo> backing =
      real.ok() ? Inspect(p, *real, roots, seen, depth + 1) : Result<MountInfo>(real.status());
  if (backing.ok()) {
    m.backing.push_back(std::move(*backing));
  } else {
    m.notes.push_back("the loop device's backing file: " + backing.status().message());
  }
}

Result<MountInfo> Inspect(Platform& p, const std::string& real, const InspectRoots& roots,
                          const Seen& seen, int depth) {
  const MountEntry* entry = FindMount(seen.table, real);
  if (entry == nullptr) {
    return Status::Error(fmt::format("no mount in {} contains {}", seen.mountinfo_path, real));
  }
  MountInfo m = DescribeMount(seen.table, *entry, real);
  AddStatfs(p, m);
  const MountEntry* upper_mount = nullptr;
  if (m.overlay) AddUpperLayer(p, seen.table, *m.overlay, &upper_mount);
  AddDevice(p, roots, seen.table, *entry, upper_mount, m);
  m.container = seen.container;
  ClassifyContainerPath(*entry, m.container);
  AddBacking(p, roots, seen, depth, m);
  return m;
}

}  // namespace

Result<MountInfo> InspectPath(Platform& p, const std::string& path, const InspectRoots& roots) {
  Result<std::string> real = p.RealPath(path);  // a missing path fails before the table is read
  if (!real.ok()) return real.status();
  Seen seen;
  seen.mountinfo_path = roots.proc + "/self/mountinfo";
  Result<std::string> text = p.ReadTextFile(seen.mountinfo_path, kMaxMountInfoBytes);
  if (!text.ok()) return Status::Error("cannot read the mount table: " + text.status().message());
  Result<std::vector<MountEntry>> table = ParseMountInfo(*text);
  if (!table.ok()) return table.status();
  seen.table = std::move(*table);
  seen.container = Container(p, roots, seen.table);
  return Inspect(p, *real, roots, seen, 0);
}

}  // namespace durprobe::platform
