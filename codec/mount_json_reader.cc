// The mount block of a saved report (written by codec/mount_json.cc).
#include "codec/mount_json_reader.h"

#include <charconv>
#include <string_view>

#include "platform/container.h"

namespace durprobe::codec {
namespace {

// "major:minor" as the writer spells st_dev; false when the text is not that.
bool ParseDev(std::string_view text, unsigned* major, unsigned* minor) {
  std::size_t colon = text.find(':');
  if (colon == std::string_view::npos) return false;
  auto a = std::from_chars(text.data(), text.data() + colon, *major);
  auto b = std::from_chars(text.data() + colon + 1, text.data() + text.size(), *minor);
  return a.ec == std::errc() && b.ec == std::errc() && b.ptr == text.data() + text.size();
}

void ReadDev(const JsonFields& f, unsigned* major, unsigned* minor) {
  std::string dev = f.String("dev");
  if (!dev.empty() && !ParseDev(dev, major, minor)) f.Fail("expected \"major:minor\"", "dev");
}

platform::DeviceInfo ReadDevice(const JsonFields& f) {
  platform::DeviceInfo d;
  d.name = f.String("name", Need::kRequired);
  d.disk = f.String("disk");
  d.kind = f.String("kind");
  ReadDev(f, &d.major, &d.minor);
  d.partition = f.Bool("partition");
  d.rotational = f.OptionalBool("rotational", Need::kRequired);
  d.write_cache = f.String("write_cache", Need::kRequired);
  d.fua = f.OptionalBool("fua");
  d.logical_block_size = f.Uint("logical_block_size");
  d.physical_block_size = f.Uint("physical_block_size");
  d.scheduler = f.String("scheduler");
  d.queue_depth = f.Uint("queue_depth");
  d.model = f.String("model");
  d.dm_name = f.String("dm_name");
  d.md_level = f.String("md_level");
  d.backing_file = f.String("backing_file");
  d.backing_fstype = f.String("backing_fstype");
  d.backing_mount_point = f.String("backing_mount_point");
  f.Each("slaves", Need::kOptional,
         [&](const JsonFields& s) { d.slaves.push_back(ReadDevice(s)); });
  return d;
}

platform::OverlayInfo ReadOverlay(const JsonFields& f) {
  platform::OverlayInfo o;
  o.lower_dirs = f.Strings("lower_dirs");
  o.upper_dir = f.String("upper_dir");
  o.work_dir = f.String("work_dir");
  o.volatile_mount = f.Bool("volatile");
  o.upper_visible = f.Bool("upper_visible");
  o.upper_fstype = f.String("upper_fstype");
  o.upper_mount_point = f.String("upper_mount_point");
  o.upper_source = f.String("upper_source");
  return o;
}

platform::ContainerInfo ReadContainer(const JsonFields& f) {
  platform::ContainerInfo c;
  c.in_container = f.Bool("in_container");
  c.runtime = f.String("runtime");
  c.evidence = f.Strings("evidence");
  c.path_role = f.OptionalEnum<platform::PathRole>("path_role");
  c.path_role_reason = f.String("path_role_reason");
  return c;
}

}  // namespace

platform::MountInfo ReadMount(const JsonFields& f) {
  platform::MountInfo m;
  m.fstype = f.String("fstype", Need::kRequired);
  m.fs_subtype = f.String("fs_subtype");
  m.source = f.String("source", Need::kRequired);
  m.mount_point = f.String("mount_point", Need::kRequired);
  m.root = f.String("root");
  m.options = f.Strings("options", Need::kRequired);
  m.mount_options = f.Strings("mount_options");
  m.super_options = f.Strings("super_options");
  m.bind = f.Bool("bind", Need::kRequired);
  m.bind_note = f.String("bind_note");
  ReadDev(f, &m.dev_major, &m.dev_minor);
  if (f.Has("statfs")) {
    JsonFields s = f.Object("statfs");
    m.statfs_known = true;
    std::string magic = s.String("magic");
    if (!magic.empty()) {
      std::string_view hex = magic;
      if (hex.starts_with("0x")) hex.remove_prefix(2);
      auto parsed = std::from_chars(hex.data(), hex.data() + hex.size(), m.statfs_magic, 16);
      if (parsed.ec != std::errc() || parsed.ptr != hex.data() + hex.size()) {
        s.Fail("expected a hexadecimal number", "magic");
      }
    }
    m.statfs_type = s.String("fstype");
    m.statfs_agrees = s.OptionalBool("agrees");
  }
  if (f.Has("overlay")) m.overlay = ReadOverlay(f.Object("overlay"));
  // The contract requires the key; null says no block device backs the mount.
  if (f.Has("device")) {
    m.device = ReadDevice(f.Object("device"));
  } else {
    f.Object("device", Need::kRequired);
  }
  m.device_note = f.String("device_note");
  m.container = ReadContainer(f.Object("container"));
  m.notes = f.Strings("notes");
  if (f.Has("backing")) m.backing.push_back(ReadMount(f.Object("backing")));
  return m;
}

}  // namespace durprobe::codec
