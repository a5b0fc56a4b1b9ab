// What the crash device refuses to mount: a filesystem it does not make, and ext4's
// errors=panic, which would make an injected write failure a kernel panic of the machine.
#include <gtest/gtest.h>

#include "platform/crash_device.h"

namespace durprobe::platform {
namespace crash_fs_spec_test {

TEST(CrashFsSpecTest, ErrorsPanicIsRefusedWhereverItStandsInTheOptions) {
  for (const char* options :
       {"errors=panic", "data=journal,errors=panic", "errors=panic,noatime"}) {
    Status s = CheckCrashFsSpec({"ext4", options});
    EXPECT_EQ(s.kind(), Status::Kind::kInvalidArgument) << options;
    EXPECT_NE(s.message().find("errors=panic"), std::string::npos) << s.message();
  }
}

TEST(CrashFsSpecTest, TheOtherErrorModesAndFilesystemsPass) {
  EXPECT_TRUE(CheckCrashFsSpec({"ext4", "errors=remount-ro,data_err=abort"}).ok());
  EXPECT_TRUE(CheckCrashFsSpec({"ext4", "errors=continue"}).ok());
  EXPECT_TRUE(CheckCrashFsSpec({"xfs", ""}).ok());
  EXPECT_TRUE(CheckCrashFsSpec({"btrfs", "compress=zstd"}).ok());
  EXPECT_FALSE(CheckCrashFsSpec({"zfs", ""}).ok());
  // Only the whole option: a value that merely contains the words is not the option.
  EXPECT_TRUE(CheckCrashFsSpec({"ext4", "errors=panicky"}).ok());
}

}  // namespace crash_fs_spec_test
}  // namespace durprobe::platform
