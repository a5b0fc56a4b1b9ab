// The mount block's JSON keys and console text: a format change here is a decision.
#include <gtest/gtest.h>

#include <sstream>

#include "codec/mount_json.h"
#include "codec/report_json.h"
#include "render/console/mount_console.h"

namespace durprobe::render::console {
namespace {

platform::MountInfo LoopExt4() {
  platform::MountInfo m;
  m.path = "/lab/ext4/db";
  m.fstype = "ext4";
  m.source = "/dev/loop0";
  m.mount_point = "/lab/ext4";
  m.root = "/";
  m.dev_major = 7;
  m.mount_options = {"rw", "relatime"};
  m.super_options = {"rw", "nobarrier"};
  m.options = {"rw", "relatime", "nobarrier"};
  m.statfs_known = true;
  m.statfs_magic = 0xEF53;
  m.statfs_type = "ext4";
  m.statfs_agrees = true;
  m.device = platform::DeviceInfo{.name = "loop0",
                                  .disk = "loop0",
                                  .major = 7,
                                  .minor = 0,
                                  .kind = "loop",
                                  .rotational = false,
                                  .write_cache = "write back",
                                  .fua = false,
                                  .logical_block_size = 512,
                                  .physical_block_size = 512,
                                  .scheduler = "none",
                                  .backing_file = "/lab/img/ext4.img",
                                  .backing_fstype = "xfs",
                                  .backing_mount_point = "/"};
  return m;
}

TEST(MountJsonTest, ContractKeysAndUnknownsAsNull) {
  nlohmann::json j = codec::ToJson(LoopExt4());
  EXPECT_EQ(j["fstype"], "ext4");
  EXPECT_EQ(j["source"], "/dev/loop0");
  EXPECT_EQ(j["mount_point"], "/lab/ext4");
  EXPECT_EQ(j["options"], nlohmann::json({"rw", "relatime", "nobarrier"}));
  EXPECT_EQ(j["bind"], false);
  EXPECT_EQ(j["device"]["name"], "loop0");
  EXPECT_EQ(j["device"]["rotational"], false);
  EXPECT_EQ(j["device"]["write_cache"], "write back");
  EXPECT_EQ(j["device"]["backing_file"], "/lab/img/ext4.img");
  EXPECT_EQ(j["device"]["model"], nullptr);
  EXPECT_EQ(j["statfs"]["magic"], "0xef53");
  EXPECT_EQ(j["statfs"]["agrees"], true);
  EXPECT_EQ(j["overlay"], nullptr);
  EXPECT_EQ(j["fs_subtype"], nullptr);
  EXPECT_EQ(j["container"]["in_container"], false);
}

TEST(MountJsonTest, TargetCarriesMountOnlyWhenInspected) {
  model::Report r;
  r.targets.push_back(model::Target{.path = "/a"});
  r.targets.push_back(model::Target{.path = "/b", .mount = LoopExt4()});
  nlohmann::json j = codec::ToJson(r);
  EXPECT_FALSE(j["targets"][0].contains("mount"));
  EXPECT_EQ(j["targets"][1]["mount"]["fstype"], "ext4");
}

TEST(MountConsoleTest, ReadableBlock) {
  std::ostringstream out;
  PrintMountBlock(LoopExt4(), out);
  EXPECT_EQ(out.str(),
            "  filesystem  ext4; statfs magic 0xef53 = ext4, agrees\n"
            "  mount       /lab/ext4 from /dev/loop0, not a bind mount\n"
            "  options     rw,relatime\n"
            "  superblock  rw,nobarrier\n"
            "  device      loop0 (loop) backed by /lab/img/ext4.img on xfs (/)\n"
            "  queue       non-rotational, write cache: write back, no FUA, blocks 512/512 B "
            "logical/physical, scheduler none\n"
            "  container   no sign of one\n");
}

TEST(MountConsoleTest, OverlayAndContainerLines) {
  platform::MountInfo m;
  m.fstype = "overlay";
  m.source = "overlay";
  m.mount_point = "/";
  m.root = "/";
  m.overlay = platform::OverlayInfo{
      .lower_dirs = {"/l1", "/l2"}, .upper_dir = "/u", .work_dir = "/w", .volatile_mount = true};
  m.device_note = "overlay whose upper layer is not visible here: device unknown";
  m.container = platform::ContainerInfo{.in_container = true,
                                        .runtime = "docker",
                                        .evidence = {"/.dockerenv exists"},
                                        .path_role = platform::PathRole::kOverlayRoot,
                                        .path_role_reason = "why"};
  std::ostringstream out;
  PrintMountBlock(m, out);
  std::string s = out.str();
  EXPECT_NE(s.find("  lower       /l1 : /l2\n"), std::string::npos) << s;
  EXPECT_NE(s.find("  upper       /u, not visible from this mount namespace\n"), std::string::npos)
      << s;
  EXPECT_NE(s.find("volatile: syncs are skipped"), std::string::npos) << s;
  EXPECT_NE(s.find("  container   yes, docker (/.dockerenv exists)\n"), std::string::npos) << s;
  EXPECT_NE(s.find("path is overlay_root: why"), std::string::npos) << s;
}

}  // namespace
}  // namespace durprobe::render::console
