// The platform seam's file size, pipes, child processes (used by the SQLite workloads'
// process variants and WAL-size samples) and the partner thread (the one-client commit probe).
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
  Result<Pipe> pipe = p.MakePipe();
  ASSERT_TRUE(pipe.ok()) << pipe.status().message();
  Result<int> pid = p.Spawn([&] {
    (void)pipe->read.Close();
    return p.WriteAll(pipe->write.get(), "hello", 5).ok() ? 0 : 1;
  });
  ASSERT_TRUE(pid.ok());
  ASSERT_TRUE(pipe->write.Close().ok());
  std::string got;
  char buf[16];
  for (;;) {
    Result<std::size_t> n = p.ReadSome(pipe->read.get(), buf, sizeof buf);
    ASSERT_TRUE(n.ok()) << n.status().message();
    if (*n == 0) break;
    got.append(buf, *n);
  }
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

// The partner thread answers every round trip after spinning its share, and stops when its
// handle goes: ten trips of 20 us a side take at least 400 us of the caller's clock (each side
// spins that long), and destroying the handle joins the thread.
TEST(ProcessTest, APartnerThreadAnswersEachRoundTripAndStopsWithItsHandle) {
  Platform& p = Default();
  for (int run = 0; run < 2; ++run) {  // a second partner starts after the first has stopped
    Result<std::unique_ptr<Platform::Partner>> partner = p.StartPartner();
    ASSERT_TRUE(partner.ok()) << partner.status().message();
    std::uint64_t start = p.NowNanos();
    for (int i = 0; i < 10; ++i) ASSERT_TRUE((*partner)->RoundTrip(20'000).ok());
    EXPECT_GE(p.NowNanos() - start, 400'000u);
  }
}

}  // namespace
}  // namespace durprobe::platform
