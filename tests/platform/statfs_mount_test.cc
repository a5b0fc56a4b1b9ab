#include "platform/statfs_mount.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/fixtures.h"

namespace durprobe::platform {
namespace {

// The snapshot's key=value lines as the macOS StatFs would fill them.
FsStat Snapshot(const std::string& fixture) {
  FsStat st;
  std::istringstream in(durprobe::testing_support::ReadFixture(fixture));
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::string key = line.substr(0, line.find('='));
    std::string value = line.substr(line.find('=') + 1);
    if (key == "f_fstypename") st.type_name = value;
    if (key == "f_mntonname") st.mount_point = value;
    if (key == "f_mntfromname") st.source = value;
    if (key == "f_bsize") st.block_size = std::stoull(value);
    if (key == "f_flags") {
      std::istringstream words(value);
      for (std::string w; std::getline(words, w, ',');) st.flags.push_back(w);
    }
  }
  return st;
}

TEST(StatfsMountTest, ApfsDataVolume) {
  MountInfo m = MountFromStatfs(Snapshot("macos/statfs_data_volume.txt"), "/Users/alice");
  EXPECT_EQ(m.path, "/Users/alice");
  EXPECT_EQ(m.fstype, "apfs");
  EXPECT_EQ(m.mount_point, "/System/Volumes/Data");
  EXPECT_EQ(m.source, "/dev/disk3s5");
  EXPECT_EQ(m.options, (std::vector<std::string>{"local", "journaled", "nobrowse"}));
  EXPECT_FALSE(m.bind);
  EXPECT_EQ(m.statfs_agrees, true);
  ASSERT_TRUE(m.device.has_value());
  EXPECT_EQ(m.device->name, "disk3s5");
  EXPECT_EQ(m.device->disk, "disk3");
  EXPECT_TRUE(m.device->partition);
  EXPECT_EQ(m.device->rotational, std::nullopt);
  EXPECT_EQ(m.device->write_cache, "");
}

TEST(StatfsMountTest, SmbShareHasNoDevice) {
  MountInfo m = MountFromStatfs(Snapshot("macos/statfs_smb_share.txt"), "/Volumes/team/db");
  EXPECT_EQ(m.fstype, "smbfs");
  EXPECT_EQ(m.source, "//alice@winsrv/team");
  EXPECT_FALSE(m.device.has_value());
  EXPECT_FALSE(m.device_note.empty());
}

}  // namespace
}  // namespace durprobe::platform
