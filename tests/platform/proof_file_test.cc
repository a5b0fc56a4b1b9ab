// platform::ReadOwnedFile, the reader of a file taken as proof (--evidence): only a regular file
// the running user or root owns, that no one else can write, in a directory no one else can
// replace it in, is read; a symlink, a FIFO (at once, never a hang), a device, or a file too
// large is refused in one line naming the problem.
#include "platform/proof_file.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <string>

#include "tests/test_dirs.h"

namespace durprobe::platform::owned_file_test {

using testing_support::TempDir;

Platform& P() { return Default(); }

std::string Refusal(const std::string& path, std::size_t max = 1 << 20) {
  Result<std::string> r = ReadOwnedFile(P(), path, max);
  EXPECT_FALSE(r.ok()) << path << " was read: " << (r.ok() ? *r : "");
  if (r.ok()) return "";
  EXPECT_EQ(r.status().kind(), Status::Kind::kInvalidArgument) << r.status().message();
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
  return r.status().message();
}

#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)

TEST(ProofFileTest, ReadsTheUsersOwnFile) {
  TempDir dir;
  const std::string f = dir.path() + "/evidence.json";
  ASSERT_TRUE(P().WriteTextFile(f, "{}\n").ok());
  ASSERT_EQ(::chmod(f.c_str(), 0644), 0);
  Result<std::string> text = ReadOwnedFile(P(), f, 1 << 20);
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(*text, "{}\n");
  // In a sticky directory anyone writes in (/tmp), no one else can rename or replace it.
  ASSERT_EQ(::chmod(dir.path().c_str(), 01777), 0);
  EXPECT_TRUE(ReadOwnedFile(P(), f, 1 << 20).ok());
}

TEST(ProofFileTest, RefusesASymlinkEvenToTheUsersOwnFile) {
  TempDir dir;
  const std::string f = dir.path() + "/evidence.json";
  ASSERT_TRUE(P().WriteTextFile(f, "{}\n").ok());
  ASSERT_EQ(testing_support::Symlink(f, dir.path() + "/link.json"), 0);
  EXPECT_HAS(Refusal(dir.path() + "/link.json"), "is a symlink");
}

TEST(ProofFileTest, RefusesAFifoAtOnceASocketAndADevice) {
  TempDir dir;
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // No writer ever comes: a reader that waited would hang here (ctest's timeout would end it).
  EXPECT_HAS(Refusal(fifo), "not a regular file");
  const std::string sock = dir.path() + "/sock";
  int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(sock.size(), sizeof addr.sun_path);
  sock.copy(addr.sun_path, sock.size());
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  EXPECT_HAS(Refusal(sock), "not a regular file");
  ::close(s);
  EXPECT_HAS(Refusal("/dev/null"), "not a regular file");
  EXPECT_HAS(Refusal(dir.path()), "is a directory");
  EXPECT_HAS(Refusal(dir.path() + "/"), "is a directory");
  EXPECT_HAS(Refusal(dir.path() + "/absent"), "absent");
}

TEST(ProofFileTest, RefusesAFileOthersCanWriteOrReplace) {
  TempDir dir;
  const std::string f = dir.path() + "/evidence.json";
  ASSERT_TRUE(P().WriteTextFile(f, "{}\n").ok());
  for (mode_t mode : {0664, 0646, 0666}) {
    ASSERT_EQ(::chmod(f.c_str(), mode), 0);
    EXPECT_HAS(Refusal(f), "writable by group or others");
  }
  ASSERT_EQ(::chmod(f.c_str(), 0644), 0);
  // A directory others write in without the sticky bit: any of them could rename the file away
  // and put another in its place.
  for (mode_t mode : {0777, 0775}) {
    ASSERT_EQ(::chmod(dir.path().c_str(), mode), 0);
    EXPECT_HAS(Refusal(f), "its directory");
  }
  ASSERT_EQ(::chmod(dir.path().c_str(), 0700), 0);
  EXPECT_TRUE(ReadOwnedFile(P(), f, 1 << 20).ok());
}

TEST(ProofFileTest, RefusesAnotherUsersFileAndDirectory) {
  if (!testing_support::IsRoot()) GTEST_SKIP() << "needs root to give a file to another user";
  TempDir dir;
  const std::string f = dir.path() + "/evidence.json";
  ASSERT_TRUE(P().WriteTextFile(f, "{}\n").ok());
  ASSERT_EQ(::chown(f.c_str(), 65534, 65534), 0);
  EXPECT_HAS(Refusal(f), "owned by uid 65534");
  ASSERT_EQ(::chown(f.c_str(), 0, 0), 0);
  ASSERT_EQ(::chown(dir.path().c_str(), 65534, 65534), 0);
  EXPECT_HAS(Refusal(f), "its directory is owned by uid 65534");
}

TEST(ProofFileTest, RefusesAFileLargerThanTheBound) {
  TempDir dir;
  const std::string f = dir.path() + "/big.json";
  ASSERT_TRUE(P().WriteTextFile(f, std::string(101, 'x')).ok());
  EXPECT_HAS(Refusal(f, 100), "larger than 100 bytes");
  EXPECT_TRUE(ReadOwnedFile(P(), f, 101).ok());
}

}  // namespace durprobe::platform::owned_file_test
