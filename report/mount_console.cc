#include "report/mount_console.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include "report/units.h"

namespace durprobe::report {
namespace {

constexpr const char* kRow = "  {:<11} {}\n";

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

void PrintDevice(const platform::DeviceInfo& d, std::ostream& out, int depth) {
  std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  fmt::print(out, kRow, depth == 0 ? "device" : indent + "member", DeviceHead(d));
  if (std::string queue = QueueLine(d); !queue.empty()) {
    fmt::print(out, kRow, indent + (d.partition ? "disk queue" : "queue"), queue);
  }
  for (const platform::DeviceInfo& s : d.slaves) PrintDevice(s, out, depth + 1);
}

}  // namespace

void PrintMountBlock(const platform::MountInfo& m, std::ostream& out) {
  std::string fs =
      m.fs_subtype.empty() ? m.fstype : fmt::format("{} (FUSE, {})", m.fstype, m.fs_subtype);
  fmt::print(out, kRow, "filesystem", fmt::format("{}; {}", fs, Statfs(m)));
  std::string bind = m.bind ? "bind mount of " + m.root : "not a bind mount";
  fmt::print(out, kRow, "mount", fmt::format("{} from {}, {}", m.mount_point, m.source, bind));
  if (!m.bind_note.empty()) fmt::print(out, kRow, "", m.bind_note);
  fmt::print(out, kRow, "options", fmt::format("{}", fmt::join(m.mount_options, ",")));
  if (!m.super_options.empty()) {
    fmt::print(out, kRow, "superblock", fmt::format("{}", fmt::join(m.super_options, ",")));
  }
  if (m.overlay) {
    const platform::OverlayInfo& o = *m.overlay;
    fmt::print(out, kRow, "lower", fmt::format("{}", fmt::join(o.lower_dirs, " : ")));
    if (!o.upper_dir.empty()) {
      std::string where = o.upper_visible ? fmt::format("on {} ({} from {})", o.upper_fstype,
                                                        o.upper_mount_point, o.upper_source)
                                          : "not visible from this mount namespace";
      fmt::print(out, kRow, "upper", fmt::format("{}, {}", o.upper_dir, where));
      fmt::print(out, kRow, "work", o.work_dir);
    }
    if (o.volatile_mount) fmt::print(out, kRow, "", "volatile: syncs are skipped");
  }
  if (m.device) {
    PrintDevice(*m.device, out, 0);
    if (!m.device_note.empty()) fmt::print(out, kRow, "", m.device_note);
  } else {
    fmt::print(out, kRow, "device", m.device_note.empty() ? "unknown" : m.device_note);
  }
  const platform::ContainerInfo& c = m.container;
  if (c.in_container) {
    fmt::print(out, kRow, "container",
               fmt::format("yes{} ({})", c.runtime.empty() ? "" : ", " + c.runtime,
                           fmt::join(c.evidence, "; ")));
    if (!c.path_role.empty()) {
      fmt::print(out, kRow, "", fmt::format("path is {}: {}", c.path_role, c.path_role_reason));
    }
  } else {
    fmt::print(out, kRow, "container", "no sign of one");
  }
  for (const std::string& n : m.notes) fmt::print(out, kRow, "note", n);
}

void PrintEnvironment(const Context& c, std::ostream& out) {
  fmt::print(out, "LD_PRELOAD: {}\n", c.ld_preload.empty() ? "(not set)" : c.ld_preload);
  const sqlite_bench::SqliteBuildInfo& b = c.sqlite_build;
  fmt::print(out,
             "SQLite {} built with synchronous={} (WAL: {}), directory syncs {}, "
             "WAL autocheckpoint {} pages\n",
             c.sqlite_version, b.default_synchronous, b.default_wal_synchronous,
             b.dirsync ? "on" : "off (SQLITE_DISABLE_DIRSYNC)", b.default_wal_autocheckpoint);
}

}  // namespace durprobe::report
