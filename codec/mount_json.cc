#include "codec/mount_json.h"

#include <fmt/format.h>

#include "platform/container.h"
#include "text/utf8.h"

namespace durprobe::codec {
namespace {

using nlohmann::json;

json OrNull(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
json OrNull(std::optional<bool> b) { return b ? json(*b) : json(nullptr); }
json OrNull(std::uint64_t n) { return n == 0 ? json(nullptr) : json(n); }

// A path that may be empty (null then), with its exact bytes beside it when not UTF-8.
void PutOptionalPath(json& obj, const std::string& key, const std::string& path) {
  if (path.empty()) {
    obj[key] = nullptr;
  } else {
    text::PutPath(obj, key, path);
  }
}

json OverlayJson(const platform::OverlayInfo& o) {
  json j{{"volatile", o.volatile_mount},
         {"upper_visible", o.upper_visible},
         {"upper_fstype", OrNull(o.upper_fstype)}};
  text::PutPaths(j, "lower_dirs", o.lower_dirs);
  PutOptionalPath(j, "upper_dir", o.upper_dir);
  PutOptionalPath(j, "work_dir", o.work_dir);
  PutOptionalPath(j, "upper_mount_point", o.upper_mount_point);
  PutOptionalPath(j, "upper_source", o.upper_source);
  return j;
}

json ContainerJson(const platform::ContainerInfo& c) {
  return json{{"in_container", c.in_container},
              {"runtime", OrNull(c.runtime)},
              {"evidence", c.evidence},
              {"path_role", c.path_role ? json(NameOf(*c.path_role)) : json(nullptr)},
              {"path_role_reason", OrNull(c.path_role_reason)}};
}

}  // namespace

json ToJson(const platform::DeviceInfo& d) {
  json slaves = json::array();
  for (const platform::DeviceInfo& s : d.slaves) slaves.push_back(ToJson(s));
  json j{{"name", d.name},
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
         {"backing_fstype", OrNull(d.backing_fstype)},
         {"slaves", slaves}};
  PutOptionalPath(j, "backing_file", d.backing_file);
  if (d.queue_depth > 0) j["queue_depth"] = d.queue_depth;  // absent: not known (older reports)
  PutOptionalPath(j, "backing_mount_point", d.backing_mount_point);
  return j;
}

json ToJson(const platform::MountInfo& m) {
  json statfs = nullptr;
  if (m.statfs_known) {
    statfs = json{
        {"magic", m.statfs_magic == 0 ? json(nullptr) : json(fmt::format("{:#x}", m.statfs_magic))},
        {"fstype", OrNull(m.statfs_type)},
        {"agrees", OrNull(m.statfs_agrees)}};
  }
  json j{{"fstype", m.fstype},
         {"fs_subtype", OrNull(m.fs_subtype)},
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
  text::PutPath(j, "source", m.source);
  text::PutPath(j, "mount_point", m.mount_point);
  text::PutPath(j, "root", m.root);
  // Only where a loop device's backing file was followed: the same object, one level down.
  if (!m.backing.empty()) j["backing"] = ToJson(m.backing.front());
  return j;
}

}  // namespace durprobe::codec
