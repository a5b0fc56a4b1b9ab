// Container detection from evidence the caller reads (files, cgroup text, environment), and what
// a path is inside a container. Pure, so tests classify Docker and Kubernetes snapshots.
#pragma once

#include <string>
#include <vector>

#include "platform/mount_info.h"

namespace durprobe::platform {

struct ContainerEvidence {
  bool dockerenv = false;       // /.dockerenv exists (Docker)
  bool containerenv = false;    // /run/.containerenv exists (Podman, Buildah)
  std::string init_cgroup;      // /proc/1/cgroup, when readable
  std::string self_cgroup;      // /proc/self/cgroup
  std::string container_env;    // $container (systemd-nspawn, Podman, LXC set it)
  bool kubernetes_env = false;  // $KUBERNETES_SERVICE_HOST is set
  std::string root_fstype;      // fstype of the mount at "/"
};

// Whether the process runs in a container, which runtime the evidence points to, and the
// evidence itself. An overlay root alone counts: a host rarely boots from one.
ContainerInfo DetectContainer(const ContainerEvidence& evidence);

// Sets info.path_role for the mount a path is reached through (only when info.in_container):
// the container's overlay root, its plain root filesystem, a share from a VM's host (virtiofs,
// 9p, Docker Desktop's fakeowner / grpcfuse), a volume (a managed volume directory, or a whole
// disk-backed or network filesystem of its own), a bind mount of a host directory, a tmpfs, or
// another mount (a nested overlay, a FUSE mount).
void ClassifyContainerPath(const MountEntry& mount, ContainerInfo& info);

// "overlay_root", "root_filesystem", "bind_from_host", "volume", "host_share", "tmpfs",
// "other_mount"
std::string_view NameOf(PathRole role);

}  // namespace durprobe::platform
