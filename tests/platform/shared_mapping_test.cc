// The shared-mapping pre-flight (Platform::CheckSharedMapping) on a temporary directory: a mapping
// that works, a child that dies of a real SIGBUS (a page past the file's end), and the fault hook.
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::platform {
namespace {

bool MapDirEmpty(const std::string& dir) {
  Result<std::vector<std::string>> names = Default().ListDirectory(dir);
  return names.ok() && names->empty();
}

TEST(SharedMappingTest, AFileOnALocalDirectoryMapsSharedAndNothingIsLeft) {
  testing_support::TempDir dir;
  Status s = Default().CheckSharedMapping(dir.path(), SharedMapping{});
  EXPECT_TRUE(s.ok()) << s.message();
  EXPECT_TRUE(MapDirEmpty(dir.path()));
}

TEST(SharedMappingTest, ASigbusKillsTheChildAndComesBackAsAnErrorNamingIt) {
  testing_support::TempDir dir;
  FaultPlatform fault(Default());
  fault.FaultSharedMapping();  // a real fault: the child touches a page past the file's end
  Status s = fault.CheckSharedMapping(dir.path(), SharedMapping{});
  ASSERT_EQ(s.kind(), Status::Kind::kError) << s.message();
  EXPECT_NE(s.message().find("killed the process"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("Bus error"), std::string::npos) << s.message();
  EXPECT_TRUE(MapDirEmpty(dir.path()));  // the parent removed the child's file
  EXPECT_EQ(fault.shared_mapping_calls(), 1);
}

TEST(SharedMappingTest, AMappingThatFailsIsUnsupportedWithTheCallAndItsErrno) {
  testing_support::TempDir dir;
  Status s = Default().CheckSharedMapping(dir.path() + "/missing", SharedMapping{});
  ASSERT_TRUE(s.unsupported()) << s.message();
  EXPECT_NE(s.message().find("open for a shared mapping"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("No such file or directory"), std::string::npos) << s.message();
}

TEST(SharedMappingTest, TheFaultHookAnswersWithoutTrying) {
  testing_support::TempDir dir;
  FaultPlatform fault(Default());
  fault.FailSharedMapping(Status::Unsupported("mmap: No such device"));
  Status s = fault.CheckSharedMapping(dir.path(), SharedMapping{});
  EXPECT_EQ(s.message(), "mmap: No such device");
  EXPECT_TRUE(MapDirEmpty(dir.path()));
}

}  // namespace
}  // namespace durprobe::platform
