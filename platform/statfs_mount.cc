#include "platform/statfs_mount.h"

#include <cctype>

namespace durprobe::platform {

MountInfo MountFromStatfs(const FsStat& st, const std::string& path) {
  MountInfo m;
  m.path = path;
  m.fstype = st.type_name;
  // macFUSE mounts report "macfuse" (older: "osxfuse"); the program is not visible here.
  if (m.fstype == "macfuse" || m.fstype == "osxfuse") m.fs_subtype = "unknown";
  m.source = st.source;
  m.mount_point = st.mount_point;
  m.root.assign(1, '/');  // GCC 12 warns falsely (-Wrestrict) on = "/" here
  m.mount_options = st.flags;
  m.options = st.flags;
  m.bind = false;
  m.bind_note = "statfs does not show bind-like mounts (nullfs, bindfs); treated as not a bind";
  m.statfs_known = true;
  m.statfs_type = st.type_name;
  m.statfs_agrees = true;  // the type name comes from statfs itself
  const std::string dev = "/dev/";
  if (st.source.starts_with(dev + "disk")) {
    DeviceInfo d;
    d.name = st.source.substr(dev.size());
    // disk3s5 is slice 5 of disk3: the whole disk is the name up to the 's' after the number.
    std::size_t i = 4;
    while (i < d.name.size() && std::isdigit(static_cast<unsigned char>(d.name[i]))) ++i;
    d.disk = d.name.substr(0, i);
    d.partition = i < d.name.size();
    d.kind = d.partition ? "partition" : "disk";
    m.device = d;
    m.device_note = "macOS: write cache, FUA and rotation are not read (IOKit is not used)";
  } else {
    m.device_note = "no /dev/disk source: not a local block device";
  }
  return m;
}

}  // namespace durprobe::platform
