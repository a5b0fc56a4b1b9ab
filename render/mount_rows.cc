#include "render/mount_rows.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "platform/container.h"
#include "text/units.h"

namespace durprobe::render {
namespace {

std::string Statfs(const platform::MountInfo& m) {
  if (!m.statfs_known) return "statfs unavailable";
  if (m.statfs_magic == 0) return fmt::format("statfs: {}", m.statfs_type);
  std::string named = m.statfs_type.empty() ? "not in durprobe's table" : m.statfs_type;
  std::string verdict = !m.statfs_agrees   ? "cannot compare"
                        : *m.statfs_agrees ? "agrees"
                                           : "DISAGREES";
  return fmt::format("statfs magic {:#x} = {}, {}", m.statfs_magic, named, verdict);
}

std::string DeviceHead(const platform::DeviceInfo& d) {
  std::string head = d.partition ? fmt::format("{} (partition of {})", d.name, d.disk)
                                 : fmt::format("{} ({})", d.name, d.kind);
  if (!d.dm_name.empty()) head += ", dm name " + d.dm_name;
  if (!d.md_level.empty()) head += ", " + d.md_level;
  if (!d.backing_file.empty()) {
    head += " backed by " + d.backing_file;
    if (!d.backing_fstype.empty()) {
      head += fmt::format(" on {} ({})", d.backing_fstype, d.backing_mount_point);
    }
  }
  return head;
}

std::string QueueLine(const platform::DeviceInfo& d) {
  std::vector<std::string> parts;
  if (d.rotational) parts.push_back(*d.rotational ? "rotational" : "non-rotational");
  if (!d.write_cache.empty()) parts.push_back("write cache: " + d.write_cache);
  if (d.fua) parts.push_back(*d.fua ? "FUA" : "no FUA");
  if (d.logical_block_size != 0) {
    parts.push_back(fmt::format("blocks {}/{} B logical/physical", d.logical_block_size,
                                d.physical_block_size));
  }
  if (!d.scheduler.empty()) parts.push_back("scheduler " + d.scheduler);
  if (!d.model.empty()) parts.push_back("model " + d.model);
  return fmt::format("{}", fmt::join(parts, ", "));
}

void AddDevice(const platform::DeviceInfo& d, std::vector<MountRow>& rows, int depth) {
  std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  rows.push_back({depth == 0 ? "device" : indent + "member", DeviceHead(d)});
  if (std::string queue = QueueLine(d); !queue.empty()) {
    rows.push_back({indent + (d.partition ? "disk queue" : "queue"), queue});
  }
  for (const platform::DeviceInfo& s : d.slaves) AddDevice(s, rows, depth + 1);
}

}  // namespace

std::vector<MountRow> MountRows(const platform::MountInfo& m) {
  std::vector<MountRow> rows;
  std::string fs =
      m.fs_subtype.empty() ? m.fstype : fmt::format("{} (FUSE, {})", m.fstype, m.fs_subtype);
  rows.push_back({"filesystem", fmt::format("{}; {}", fs, Statfs(m))});
  std::string bind = m.bind ? "bind mount of " + m.root : "not a bind mount";
  rows.push_back({"mount", fmt::format("{} from {}, {}", m.mount_point, m.source, bind)});
  if (!m.bind_note.empty()) rows.push_back({"", m.bind_note});
  rows.push_back({"options", fmt::format("{}", fmt::join(m.mount_options, ","))});
  if (!m.super_options.empty()) {
    rows.push_back({"superblock", fmt::format("{}", fmt::join(m.super_options, ","))});
  }
  if (m.overlay) {
    const platform::OverlayInfo& o = *m.overlay;
    rows.push_back({"lower", fmt::format("{}", fmt::join(o.lower_dirs, " : "))});
    if (!o.upper_dir.empty()) {
      std::string where = o.upper_visible ? fmt::format("on {} ({} from {})", o.upper_fstype,
                                                        o.upper_mount_point, o.upper_source)
                                          : "not visible from this mount namespace";
      rows.push_back({"upper", fmt::format("{}, {}", o.upper_dir, where)});
      rows.push_back({"work", o.work_dir});
    }
    if (o.volatile_mount) rows.push_back({"", "volatile: syncs are skipped"});
  }
  if (m.device) {
    AddDevice(*m.device, rows, 0);
    if (!m.device_note.empty()) rows.push_back({"", m.device_note});
  } else {
    rows.push_back({"device", m.device_note.empty() ? "unknown" : m.device_note});
  }
  const platform::ContainerInfo& c = m.container;
  if (c.in_container) {
    rows.push_back(
        {"container", fmt::format("yes{} ({})", c.runtime.empty() ? "" : ", " + c.runtime,
                                  fmt::join(c.evidence, "; "))});
    if (c.path_role) {
      rows.push_back({"", fmt::format("path is {}: {}", NameOf(*c.path_role), c.path_role_reason)});
    }
  } else {
    rows.push_back({"container", "no sign of one"});
  }
  for (const std::string& n : m.notes) rows.push_back({"note", n});
  return rows;
}

}  // namespace durprobe::render
