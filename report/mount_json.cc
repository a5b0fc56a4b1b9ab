#include "report/mount_json.h"

#include <fmt/format.h>

namespace durprobe::report {
namespace {

using nlohmann::json;

json OrNull(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
json OrNull(std::optional<bool> b) { return b ? json(*b) : json(nullptr); }
json OrNull(std::uint64_t n) { return n == 0 ? json(nullptr) : json(n); }

json OverlayJson(const platform::OverlayInfo& o) {
  return json{{"lower_dirs", o.lower_dirs},
              {"upper_dir", OrNull(o.upper_dir)},
              {"work_dir", OrNull(o.work_dir)},
              {"volatile", o.volatile_mount},
              {"upper_visible", o.upper_visible},
              {"upper_fstype", OrNull(o.upper_fstype)},
              {"upper_mount_point", OrNull(o.upper_mount_point)},
              {"upper_source", OrNull(o.upper_source)}};
}

json ContainerJson(const platform::ContainerInfo& c) {
  return json{{"in_container", c.in_container},
              {"runtime", OrNull(c.runtime)},
              {"evidence", c.evidence},
              {"path_role", OrNull(c.path_role)},
              {"path_role_reason", OrNull(c.path_role_reason)}};
}

}  // namespace

json ToJson(const platform::DeviceInfo& d) {
  json slaves = json::array();
  for (const platform::DeviceInfo& s : d.slaves) slaves.push_back(ToJson(s));
  return json{{"name", d.name},
              {"disk", OrNull(d.disk)},
              {"kind", OrNull(d.kind)},
              {"dev", fmt::format("{}:{}", d.major, d.minor)},
              {"partition", d.partition},
              {"rotational", OrNull(d.rotational)},
              {"write_cache", OrNull(d.write_cache)},
              {"fua", OrNull(d.fua)},
              {"logical_block_size", OrNull(d.logical_block_size)},
              {"physical_block_size", OrNull(d.physical_block_size)},
              {"scheduler", OrNull(d.scheduler)},
              {"model", OrNull(d.model)},
              {"dm_name", OrNull(d.dm_name)},
              {"md_level", OrNull(d.md_level)},
              {"backing_file", OrNull(d.backing_file)},
              {"backing_fstype", OrNull(d.backing_fstype)},
              {"backing_mount_point", OrNull(d.backing_mount_point)},
              {"slaves", slaves}};
}

json ToJson(const platform::MountInfo& m) {
  json statfs = nullptr;
  if (m.statfs_known) {
    statfs = json{
        {"magic", m.statfs_magic == 0 ? json(nullptr) : json(fmt::format("{:#x}", m.statfs_magic))},
        {"fstype", OrNull(m.statfs_type)},
        {"agrees", OrNull(m.statfs_agrees)}};
  }
  return json{{"fstype", m.fstype},
              {"fs_subtype", OrNull(m.fs_subtype)},
              {"source", m.source},
              {"mount_point", m.mount_point},
              {"root", m.root},
              {"options", m.options},
              {"mount_options", m.mount_options},
              {"super_options", m.super_options},
              {"bind", m.bind},
              {"bind_note", OrNull(m.bind_note)},
              {"dev", fmt::format("{}:{}", m.dev_major, m.dev_minor)},
              {"statfs", statfs},
              {"overlay", m.overlay ? OverlayJson(*m.overlay) : json(nullptr)},
              {"device", m.device ? ToJson(*m.device) : json(nullptr)},
              {"device_note", OrNull(m.device_note)},
              {"container", ContainerJson(m.container)},
              {"notes", m.notes}};
}

}  // namespace durprobe::report
