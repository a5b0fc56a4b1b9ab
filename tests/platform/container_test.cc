#include "platform/container.h"

#include <gtest/gtest.h>

#include "platform/mountinfo.h"
#include "tests/fixtures.h"

namespace durprobe::platform {
namespace {

std::vector<MountEntry> Table(const std::string& fixture) {
  Result<std::vector<MountEntry>> t =
      ParseMountInfo(durprobe::testing_support::ReadFixture(fixture));
  EXPECT_TRUE(t.ok()) << t.status().message();
  return t.ok() ? *t : std::vector<MountEntry>{};
}

std::string_view RoleOf(const std::vector<MountEntry>& table, const ContainerInfo& base,
                        const std::string& path) {
  ContainerInfo info = base;
  const MountEntry* e = FindMount(table, path);
  EXPECT_NE(e, nullptr);
  if (e != nullptr) ClassifyContainerPath(*e, info);
  return info.path_role ? NameOf(*info.path_role) : "";
}

TEST(ContainerTest, HostWithoutEvidenceIsNotAContainer) {
  ContainerEvidence ev;
  ev.self_cgroup = durprobe::testing_support::ReadFixture("container/host_cgroup_v2.txt");
  ev.root_fstype = "ext4";
  ContainerInfo info = DetectContainer(ev);
  EXPECT_FALSE(info.in_container);
  EXPECT_TRUE(info.evidence.empty());
  MountEntry root{.mount_point = "/", .fstype = "ext4"};
  ClassifyContainerPath(root, info);
  EXPECT_FALSE(info.path_role.has_value());
}

TEST(ContainerTest, KubernetesPodFromCgroupAndOverlayRoot) {
  std::vector<MountEntry> t = Table("mountinfo/kubernetes_pod.txt");
  ContainerEvidence ev;
  ev.init_cgroup = durprobe::testing_support::ReadFixture("container/kubernetes_cgroup.txt");
  ev.root_fstype = FindMount(t, "/")->fstype;
  ContainerInfo info = DetectContainer(ev);
  EXPECT_TRUE(info.in_container);
  EXPECT_EQ(info.runtime, "kubernetes");
  ASSERT_EQ(info.evidence.size(), 2u);
  EXPECT_EQ(info.evidence[0], "/proc/1 cgroup mentions kubepods");
  EXPECT_EQ(info.evidence[1], "the root filesystem is overlay");

  EXPECT_EQ(RoleOf(t, info, "/app"), "overlay_root");
  EXPECT_EQ(RoleOf(t, info, "/host-logs"), "bind_from_host");
  EXPECT_EQ(RoleOf(t, info, "/cache"), "volume");  // emptyDir lives under .../volumes/
  EXPECT_EQ(RoleOf(t, info, "/data"), "volume");   // a filesystem of its own (a PVC)
  EXPECT_EQ(RoleOf(t, info, "/var/run/secrets/kubernetes.io/serviceaccount"), "tmpfs");
}

TEST(ContainerTest, DockerDesktopSharesAndVolumes) {
  std::vector<MountEntry> t = Table("mountinfo/docker_desktop_virtiofs.txt");
  ContainerEvidence ev;
  ev.dockerenv = true;
  ev.root_fstype = "overlay";
  ContainerInfo info = DetectContainer(ev);
  EXPECT_EQ(info.runtime, "docker");
  EXPECT_EQ(RoleOf(t, info, "/data"), "host_share");
  EXPECT_EQ(RoleOf(t, info, "/app/src"), "host_share");
  EXPECT_EQ(RoleOf(t, info, "/var/lib/postgresql/data"), "volume");
  EXPECT_EQ(RoleOf(t, info, "/etc/resolv.conf"), "bind_from_host");
  EXPECT_EQ(RoleOf(t, info, "/"), "overlay_root");
}

TEST(ContainerTest, NestedOverlayAndFuseAreOtherMounts) {
  std::vector<MountEntry> t = Table("mountinfo/host_misc.txt");
  ContainerInfo info = DetectContainer(ContainerEvidence{.dockerenv = true});
  EXPECT_EQ(RoleOf(t, info, "/mnt/ovl"), "other_mount");
  EXPECT_EQ(RoleOf(t, info, "/var/lib/containers/storage/overlay/abc/merged"), "other_mount");
  EXPECT_EQ(RoleOf(t, info, "/var/lib/mysql"), "volume");
}

TEST(ContainerTest, PodmanAndEnvironmentEvidence) {
  ContainerEvidence ev;
  ev.containerenv = true;
  ev.container_env = "podman";
  ev.kubernetes_env = false;
  ContainerInfo info = DetectContainer(ev);
  EXPECT_TRUE(info.in_container);
  EXPECT_EQ(info.runtime, "podman");
  EXPECT_EQ(info.evidence.size(), 2u);
}

}  // namespace
}  // namespace durprobe::platform
