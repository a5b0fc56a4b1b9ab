// The platform seam's file size, pipes and child processes (used by the SQLite workloads'
// process variants and WAL-size samples).
#include <gtest/gtest.h>

#include <cerrno>
#include <string>

#include "platform/platform.h"
#include "tests/test_dirs.h"

namespace durprobe::platform {
namespace {

TEST(ProcessTest, SpawnedChildExitCodeComesBack) {
  Platform& p = Default();
  Result<int> pid = p.Spawn([] { return 7; });
  ASSERT_TRUE(pid.ok()) << pid.status().message();
  Result<int> code = p.WaitChild(*pid);
  ASSERT_TRUE(code.ok()) << code.status().message();
  EXPECT_EQ(*code, 7);
}

TEST(ProcessTest, PipeCarriesBytesFromChildToParentAndEndsAtExit) {
  Platform& p = Default();
  Result<std::pair<int, int>> pipe = p.MakePipe();
  ASSERT_TRUE(pipe.ok()) << pipe.status().message();
  auto [read_end, write_end] = *pipe;
  Result<int> pid = p.Spawn([&] {
    p.Close(read_end);
    return p.WriteAll(write_end, "hello", 5).ok() ? 0 : 1;
  });
  ASSERT_TRUE(pid.ok());
  p.Close(write_end);
  std::string got;
  char buf[16];
  for (;;) {
    Result<std::size_t> n = p.ReadSome(read_end, buf, sizeof buf);
    ASSERT_TRUE(n.ok()) << n.status().message();
    if (*n == 0) break;
    got.append(buf, *n);
  }
  p.Close(read_end);
  EXPECT_EQ(got, "hello");
  Result<int> code = p.WaitChild(*pid);
  ASSERT_TRUE(code.ok());
  EXPECT_EQ(*code, 0);
}

TEST(ProcessTest, FileSizeOfAFileAndOfAMissingOne) {
  testing_support::TempDir dir;
  Platform& p = Default();
  ASSERT_TRUE(p.WriteTextFile(dir.path() + "/f", std::string(1234, 'x')).ok());
  Result<std::uint64_t> size = p.FileSize(dir.path() + "/f");
  ASSERT_TRUE(size.ok()) << size.status().message();
  EXPECT_EQ(*size, 1234u);
  Result<std::uint64_t> missing = p.FileSize(dir.path() + "/nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().error_number(), ENOENT);
  EXPECT_NE(missing.status().message().find("nope"), std::string::npos);
}

}  // namespace
}  // namespace durprobe::platform
