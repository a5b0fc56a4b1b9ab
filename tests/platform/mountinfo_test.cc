#include "platform/mountinfo.h"

#include <gtest/gtest.h>

#include "tests/fixtures.h"

namespace durprobe::platform {
namespace {

using Words = std::vector<std::string>;

std::vector<MountEntry> Table(const std::string& fixture) {
  Result<std::vector<MountEntry>> t =
      ParseMountInfo(durprobe::testing_support::ReadFixture(fixture));
  EXPECT_TRUE(t.ok()) << t.status().message();
  return t.ok() ? *t : std::vector<MountEntry>{};
}

MountInfo Describe(const std::vector<MountEntry>& table, const std::string& path) {
  const MountEntry* e = FindMount(table, path);
  EXPECT_NE(e, nullptr) << path;
  return e ? DescribeMount(table, *e, path) : MountInfo{};
}

TEST(MountInfoParseTest, ParsesEveryFieldOfALine) {
  Result<std::vector<MountEntry>> t = ParseMountInfo(
      "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 shared:7 - ext3 /dev/root rw,errors=continue\n");
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->size(), 1u);
  const MountEntry& e = (*t)[0];
  EXPECT_EQ(e.id, 36);
  EXPECT_EQ(e.parent_id, 35);
  EXPECT_EQ(e.major, 98u);
  EXPECT_EQ(e.minor, 0u);
  EXPECT_EQ(e.root, "/mnt1");
  EXPECT_EQ(e.mount_point, "/mnt2");
  EXPECT_EQ(e.mount_options, (Words{"rw", "noatime"}));
  EXPECT_EQ(e.optional_fields, (Words{"master:1", "shared:7"}));
  EXPECT_EQ(e.fstype, "ext3");
  EXPECT_EQ(e.source, "/dev/root");
  EXPECT_EQ(e.super_options, (Words{"rw", "errors=continue"}));
}

TEST(MountInfoParseTest, UndoesOctalEscapes) {
  EXPECT_EQ(UnescapeMountField("/mnt/my\\040share"), "/mnt/my share");
  EXPECT_EQ(UnescapeMountField("a\\011b\\012c\\134d"), "a\tb\nc\\d");
  EXPECT_EQ(UnescapeMountField("trailing\\04"), "trailing\\04");  // incomplete: left alone
}

TEST(MountInfoParseTest, RejectsAMalformedLineNamingIt) {
  Result<std::vector<MountEntry>> t =
      ParseMountInfo("22 1 8:2 / / rw - ext4 /dev/sda2 rw\nnonsense\n");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("line 2"), std::string::npos) << t.status().message();
}

TEST(MountInfoParseTest, AcceptsAMissingSuperblockOptionsField) {
  Result<std::vector<MountEntry>> t = ParseMountInfo("22 1 8:2 / / rw - ext4 /dev/sda2\n");
  ASSERT_TRUE(t.ok());
  EXPECT_TRUE((*t)[0].super_options.empty());
}

TEST(FindMountTest, DeepestMountPointOnComponentBoundaries) {
  std::vector<MountEntry> t = Table("mountinfo/host_misc.txt");
  EXPECT_EQ(FindMount(t, "/")->mount_point, "/");
  EXPECT_EQ(FindMount(t, "/home/alice")->mount_point, "/home");
  EXPECT_EQ(FindMount(t, "/homestead")->mount_point, "/");  // not under /home
  EXPECT_EQ(FindMount(t, "/var/lib/mysql/db")->mount_point, "/var/lib/mysql");
}

TEST(FindMountTest, ParentsThatFormACycleEndTheWalk) {
  // A damaged table (the fuzzer's): ids repeat, so 23 sits on 22 and 22 on 23 at /proc. The walk
  // stopped never; now it ends within the table's length on one of the two.
  Result<std::vector<MountEntry>> t = ParseMountInfo(
      "22 1 8:2 / / rw - ext4 /dev/sda2 rw\n"
      "22 23 0:21 / /proc rw - proc proc rw\n"
      "23 22 0:21 / /proc rw - proc proc rw\n");
  ASSERT_TRUE(t.ok()) << t.status().message();
  const MountEntry* e = FindMount(*t, "/proc/self");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->mount_point, "/proc");
}

TEST(FindMountTest, LastStackedMountWins) {
  std::vector<MountEntry> t = Table("mountinfo/host_misc.txt");
  const MountEntry* shm = FindMount(t, "/dev/shm");
  ASSERT_NE(shm, nullptr);
  EXPECT_EQ(shm->id, 30);
  EXPECT_EQ(shm->super_options, (Words{"rw", "size=1024k"}));
}

TEST(FindMountTest, AMountHiddenUnderALaterParentMountIsNotChosen) {
  // /mnt/a/b (tmpfs) was mounted first, then ext4 on /mnt/a covered it.
  std::vector<MountEntry> t = Table("mountinfo/host_misc.txt");
  const MountEntry* e = FindMount(t, "/mnt/a/b/file");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->id, 42);
  EXPECT_EQ(e->fstype, "ext4");
}

TEST(FindMountTest, WithoutATreeFallsBackToLongestPrefix) {
  Result<std::vector<MountEntry>> t = ParseMountInfo(
      "100 99 0:1 / /srv rw - tmpfs tmpfs rw\n101 99 0:2 / /srv/data rw - ext4 /dev/sdb rw\n");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(FindMount(*t, "/srv/data/x")->id, 101);
  EXPECT_EQ(FindMount(*t, "/etc"), nullptr);
}

TEST(DescribeMountTest, MergesOptionsWithoutRepeats) {
  EXPECT_EQ(MergeOptions({"rw", "relatime"}, {"rw", "data=ordered"}),
            (Words{"rw", "relatime", "data=ordered"}));
  EXPECT_TRUE(HasOption({"rw", "barrier=0"}, "barrier="));
  EXPECT_FALSE(HasOption({"rw", "nobarrier"}, "barrier"));
  EXPECT_EQ(OptionValue({"commit=5", "commit=60"}, "commit"), "60");
  EXPECT_EQ(OptionValue({"commitx=5"}, "commit"), std::nullopt);
}

TEST(DescribeMountTest, BtrfsSubvolumeIsNotABindButADirectoryInsideOneIs) {
  std::vector<MountEntry> t = Table("mountinfo/host_misc.txt");
  MountInfo home = Describe(t, "/home/alice");
  EXPECT_EQ(home.fstype, "btrfs");
  EXPECT_EQ(home.root, "/@home");
  EXPECT_FALSE(home.bind);
  EXPECT_NE(home.bind_note.find("subvolume"), std::string::npos);
  MountInfo projects = Describe(t, "/srv/projects");
  EXPECT_TRUE(projects.bind);
  EXPECT_NE(projects.bind_note.find("inside btrfs subvolume /@home"), std::string::npos);
  MountInfo top = Describe(t, "/mnt/btrfs-top");
  EXPECT_FALSE(top.bind);
  EXPECT_EQ(top.bind_note, "");
}

TEST(DescribeMountTest, SecondMountOfAWholeFilesystemIsNotedNotCalledABind) {
  Result<std::vector<MountEntry>> t = ParseMountInfo(
      "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n2 1 8:1 / /mnt/again rw - ext4 /dev/sda1 rw\n");
  ASSERT_TRUE(t.ok());
  MountInfo m = Describe(*t, "/mnt/again");
  EXPECT_FALSE(m.bind);
  EXPECT_NE(m.bind_note.find("also mounted at /"), std::string::npos) << m.bind_note;
}

TEST(DescribeMountTest, OverlayLayersWithEscapesAndVolatile) {
  std::vector<MountEntry> t = Table("mountinfo/host_misc.txt");
  MountInfo m = Describe(t, "/mnt/ovl/x");
  ASSERT_TRUE(m.overlay.has_value());
  EXPECT_EQ(m.overlay->lower_dirs, (Words{"/srv/lower:1", "/srv/lower2"}));
  EXPECT_EQ(m.overlay->upper_dir, "/srv/up per");
  EXPECT_EQ(m.overlay->work_dir, "/srv/work");
  EXPECT_TRUE(m.overlay->volatile_mount);
}

// Newer kernels show the volatile option as fsync=volatile (a Podman --rm root does).
TEST(DescribeMountTest, OverlayVolatileInBothSpellings) {
  EXPECT_TRUE(ParseOverlayOptions({"rw", "lowerdir=/l", "upperdir=/u", "volatile"}).volatile_mount);
  EXPECT_TRUE(
      ParseOverlayOptions({"rw", "lowerdir=/l", "upperdir=/u", "fsync=volatile"}).volatile_mount);
  EXPECT_FALSE(
      ParseOverlayOptions({"rw", "lowerdir=/l", "upperdir=/u", "fsync=strict"}).volatile_mount);
  std::vector<MountEntry> t = Table("mountinfo/podman_rm_root.txt");
  MountInfo m = Describe(t, "/var/lib/db");
  ASSERT_TRUE(m.overlay.has_value());
  EXPECT_TRUE(m.overlay->volatile_mount);
}

TEST(DescribeMountTest, OverlayLayersAddedOneByOne) {
  OverlayInfo o = ParseOverlayOptions({"rw", "lowerdir+=/l1", "lowerdir+=/l2", "upperdir=/u"});
  EXPECT_EQ(o.lower_dirs, (Words{"/l1", "/l2"}));
  EXPECT_EQ(o.upper_dir, "/u");
  EXPECT_FALSE(o.volatile_mount);
}

TEST(DescribeMountTest, FuseSubtypeIsSplitOut) {
  std::vector<MountEntry> t = Table("mountinfo/host_misc.txt");
  MountInfo m = Describe(t, "/mnt/remote");
  EXPECT_EQ(m.fstype, "fuse.sshfs");
  EXPECT_EQ(m.fs_subtype, "sshfs");
  EXPECT_EQ(m.source, "alice@build:/srv");
  EXPECT_EQ(Describe(t, "/var/lib/mysql").fs_subtype, "");
}

TEST(DescribeMountTest, FuseWithoutSubtypeSaysSo) {
  Result<std::vector<MountEntry>> t = ParseMountInfo(
      "1 0 8:1 / / rw - ext4 /dev/sda1 rw\n2 1 0:45 / /mnt/b rw - fuse /srv/src rw,user_id=0\n");
  ASSERT_TRUE(t.ok());
  MountInfo m = Describe(*t, "/mnt/b");
  EXPECT_EQ(m.fstype, "fuse");
  EXPECT_EQ(m.fs_subtype, "");
  ASSERT_EQ(m.notes.size(), 1u);
  EXPECT_NE(m.notes[0].find("without a subtype"), std::string::npos);
}

TEST(MountInfoFixtureTest, DockerDesktopVirtiofsShare) {
  std::vector<MountEntry> t = Table("mountinfo/docker_desktop_virtiofs.txt");
  MountInfo root = Describe(t, "/usr/lib");
  EXPECT_EQ(root.fstype, "overlay");
  ASSERT_TRUE(root.overlay.has_value());
  EXPECT_EQ(root.overlay->lower_dirs.size(), 2u);
  EXPECT_EQ(root.overlay->upper_dir, "/var/lib/docker/overlay2/5c1e0d/diff");

  MountInfo data = Describe(t, "/data/db");
  EXPECT_EQ(data.fstype, "virtiofs");
  EXPECT_EQ(data.source, "virtiofs0");
  EXPECT_EQ(data.root, "/Users/alice/data");
  EXPECT_TRUE(data.bind);

  MountInfo app = Describe(t, "/app");
  EXPECT_EQ(app.fstype, "fakeowner");
  EXPECT_EQ(app.source, "/run/host_mark/Users");
  EXPECT_TRUE(app.bind);

  MountInfo vol = Describe(t, "/var/lib/postgresql/data");
  EXPECT_EQ(vol.fstype, "ext4");
  EXPECT_EQ(vol.dev_major, 254u);
  EXPECT_EQ(vol.dev_minor, 1u);
}

TEST(MountInfoFixtureTest, KubernetesPodOverlayRootAndHostPath) {
  std::vector<MountEntry> t = Table("mountinfo/kubernetes_pod.txt");
  MountInfo root = Describe(t, "/app");
  EXPECT_EQ(root.fstype, "overlay");
  EXPECT_EQ(root.mount_point, "/");
  EXPECT_FALSE(root.bind);
  ASSERT_TRUE(root.overlay.has_value());
  EXPECT_NE(root.overlay->upper_dir.find("snapshots/518/fs"), std::string::npos);

  MountInfo logs = Describe(t, "/host-logs/today");
  EXPECT_EQ(logs.fstype, "xfs");
  EXPECT_EQ(logs.root, "/var/log/app");
  EXPECT_TRUE(logs.bind);
  EXPECT_EQ(logs.source, "/dev/nvme0n1p1");

  MountInfo data = Describe(t, "/data");
  EXPECT_FALSE(data.bind);
  EXPECT_EQ(data.options, (Words{"rw", "relatime", "data=ordered"}));
}

TEST(MountInfoFixtureTest, NfsAndCifsMounts) {
  std::vector<MountEntry> t = Table("mountinfo/nfs_client.txt");
  MountInfo shared = Describe(t, "/mnt/shared/db");
  EXPECT_EQ(shared.fstype, "nfs4");
  EXPECT_EQ(shared.source, "fileserver:/export/shared");
  EXPECT_FALSE(shared.bind);
  EXPECT_EQ(OptionValue(shared.super_options, "vers"), "4.2");
  EXPECT_EQ(shared.dev_major, 0u);

  MountInfo builds = Describe(t, "/mnt/builds");
  EXPECT_EQ(builds.fstype, "nfs");
  EXPECT_FALSE(builds.bind) << "root equals the exported path";
  MountInfo nightly = Describe(t, "/srv/nightly");
  EXPECT_TRUE(nightly.bind);

  MountInfo team = Describe(t, "/mnt/team share/x");
  EXPECT_EQ(team.fstype, "cifs");
  EXPECT_EQ(team.mount_point, "/mnt/team share");
  EXPECT_EQ(team.source, "//winsrv/team share");
}

}  // namespace
}  // namespace durprobe::platform
