#include "explain/compare_advice.h"

#include <fmt/format.h>

#include <algorithm>
#include <initializer_list>
#include <string_view>

namespace durprobe::explain {
namespace {

bool OneOf(std::string_view s, std::initializer_list<std::string_view> set) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

// What makes every plain file operation dearer on this path, by the layer inspect found.
std::string PerOpAdvice(const model::Target& t) {
  if (!t.mount) {
    return "every file operation costs more here (a layer every call crosses: FUSE, virtiofs, 9p, "
           "overlayfs or a network share; durprobe inspect shows which)";
  }
  const platform::MountInfo& m = *t.mount;
  if (m.fstype == "overlay") {
    return "the path is on a kernel overlayfs (a container's writable layer): a file opened for "
           "writing is first copied up from its lower layer and lookups search every layer; put "
           "the database on a volume (a bind mount or a named volume), not in the container's "
           "own filesystem";
  }
  if (m.fstype.starts_with("fuse")) {
    return fmt::format(
        "every file operation crosses into a FUSE server in user space ({}): keep "
        "the database on a filesystem the kernel serves directly, such as a volume "
        "inside the VM or container",
        m.fs_subtype.empty() ? m.fstype : m.fs_subtype);
  }
  if (OneOf(m.fstype, {"virtiofs", "9p", "fakeowner"})) {
    return fmt::format(
        "every file operation is a round trip to the host ({}): keep the database "
        "on a volume inside the VM or container, not on a host share",
        m.fstype);
  }
  if (OneOf(m.fstype, {"nfs", "nfs4", "cifs", "smb3"})) {
    return fmt::format(
        "every file operation is a round trip over the network ({}): keep the "
        "database on local storage",
        m.fstype);
  }
  return fmt::format(
      "every file operation costs more on this {} mount than on the first path: "
      "compare their mount options and devices (durprobe inspect)",
      m.fstype);
}

}  // namespace

std::string CompareAdvice(Dominant dominant, const model::Target& t) {
  if (dominant == Dominant::kPerOp) return PerOpAdvice(t);
  if (dominant == Dominant::kPerSync) {
    return "the flush path is slower (device, cache mode, virtual disk or host policy): put the "
           "database on storage with faster flushes, or batch more work per commit";
  }
  return "creating and renaming files is slower here: prefer journal modes that reuse files "
         "(WAL, TRUNCATE, PERSIST) over DELETE";
}

}  // namespace durprobe::explain
