#include "platform/container.h"

#include <fmt/format.h>

#include <array>
#include <string_view>

#include "platform/enum_table.h"
#include "platform/fs_kinds.h"

namespace durprobe::platform {
namespace {

struct CgroupHint {
  std::string_view word;
  std::string_view runtime;
};

// Names container managers put in cgroup paths (cgroup v1, or v2 outside a cgroup namespace).
constexpr std::array kCgroupHints = {
    CgroupHint{"kubepods", "kubernetes"},   CgroupHint{"docker", "docker"},
    CgroupHint{"libpod", "podman"},         CgroupHint{"crio", "cri-o"},
    CgroupHint{"containerd", "containerd"}, CgroupHint{"lxc", "lxc"},
    CgroupHint{"garden", "garden"},
};

// Docker volumes live under .../volumes/NAME/_data, Kubernetes' under
// /var/lib/kubelet/pods/UID/volumes/kubernetes.io~TYPE/NAME.
bool IsManagedVolumeDir(const std::string& root) {
  return root.find("/volumes/") != std::string::npos;
}

}  // namespace

ContainerInfo DetectContainer(const ContainerEvidence& ev) {
  ContainerInfo info;
  auto note = [&](std::string runtime, std::string why) {
    info.in_container = true;
    if (info.runtime.empty()) info.runtime = std::move(runtime);
    info.evidence.push_back(std::move(why));
  };
  if (ev.kubernetes_env) note("kubernetes", "KUBERNETES_SERVICE_HOST is set");
  if (ev.dockerenv) note("docker", "/.dockerenv exists");
  if (ev.containerenv) note("podman", "/run/.containerenv exists");
  for (const std::string* text : {&ev.init_cgroup, &ev.self_cgroup}) {
    for (const CgroupHint& hint : kCgroupHints) {
      if (text->find(hint.word) == std::string::npos) continue;
      std::string why = fmt::format("{} cgroup mentions {}",
                                    text == &ev.init_cgroup ? "/proc/1" : "/proc/self", hint.word);
      note(std::string(hint.runtime), std::move(why));
      break;
    }
  }
  if (!ev.container_env.empty()) {
    note(ev.container_env, fmt::format("$container is '{}'", ev.container_env));
  }
  if (ev.root_fstype == "overlay" || ev.root_fstype == "fuse.fuse-overlayfs") {
    note("", fmt::format("the root filesystem is {}", ev.root_fstype));
  }
  return info;
}

constexpr TextRow<PathRole> kPathRoleNames[] = {
    {PathRole::kOverlayRoot, "overlay_root"},    {PathRole::kRootFilesystem, "root_filesystem"},
    {PathRole::kBindFromHost, "bind_from_host"}, {PathRole::kVolume, "volume"},
    {PathRole::kHostShare, "host_share"},        {PathRole::kTmpfs, "tmpfs"},
    {PathRole::kOtherMount, "other_mount"},
};
static_assert(OneRowPerValue(kPathRoleNames, kLastPathRole), "one name per PathRole");

std::string_view NameOf(PathRole role) { return TextIn(kPathRoleNames, role); }

void ClassifyContainerPath(const MountEntry& m, ContainerInfo& info) {
  if (!info.in_container) return;
  auto set = [&](PathRole role, std::string reason) {
    info.path_role = role;
    info.path_role_reason = std::move(reason);
  };
  if (m.mount_point == "/") {
    if (m.fstype == "overlay" || m.fstype == "fuse.fuse-overlayfs") {
      set(PathRole::kOverlayRoot,
          "the path is on the container's own overlay root: writes land in its "
          "upper layer, which is removed with the container");
    } else {
      set(PathRole::kRootFilesystem,
          fmt::format("the container's root is {}, not an overlay", m.fstype));
    }
  } else if (IsHostShare(m.fstype)) {
    set(PathRole::kHostShare,
        fmt::format("{} shares a directory of the VM's host ({})", m.fstype, m.root));
  } else if (IsMemoryFs(m.fstype)) {
    set(PathRole::kTmpfs, "a memory filesystem mounted into the container");
  } else if (m.root != "/" && IsManagedVolumeDir(m.root)) {
    set(PathRole::kVolume,
        fmt::format("a managed volume directory ({}) bound into the container", m.root));
  } else if (m.root != "/") {
    set(PathRole::kBindFromHost,
        fmt::format("directory {} of {} bound in from the host", m.root, m.source));
  } else if (m.major != 0 || m.source.starts_with("/dev/") || IsNetworkFs(m.fstype)) {
    set(PathRole::kVolume,
        fmt::format("a whole {} filesystem ({}) mounted into the container", m.fstype, m.source));
  } else {
    set(PathRole::kOtherMount,
        fmt::format("a mount of type {} inside the container, neither its root "
                    "nor a disk-backed volume",
                    m.fstype));
  }
}

}  // namespace durprobe::platform
