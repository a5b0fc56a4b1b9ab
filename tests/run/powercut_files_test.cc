// A power-cut run belongs to its writer (issue 53 items 1, 2): verify opens the run's directory
// and files as the writer left them and refuses, in one line naming what changed, a directory or
// file that is writable by others, hard-linked, a FIFO, a symlink, another run's, or not the one
// the writer recorded.
#include "run/powercut_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>

#include "run/powercut_run.h"
#include "tests/test_dirs.h"

namespace durprobe::run::powercut_files_test {

constexpr char kRun[] = "0123456789abcdef";

class PowercutFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = path_.path() + "/" + std::string(kPowercutDirPrefix) + kRun;
    ASSERT_EQ(::mkdir(dir_.c_str(), 0700), 0);
    std::ofstream(dir_ + "/records") << "records";
    Record();
    std::ofstream(dir_ + "/secret") << secret_ << "\n";
    ASSERT_EQ(::chmod((dir_ + "/secret").c_str(), 0600), 0);
  }
  void Record() {
    platform::Platform& p = platform::Default();
    auto d = platform::OpenOwnedAt(p, platform::kNoDirectory, dir_, true);
    ASSERT_TRUE(d.ok());
    ::unlink((dir_ + "/identity").c_str());
    ASSERT_TRUE(RecordIdentity(p, d->handle.get(), kRun, {"records"}).ok());
  }
  // Open and OpenFile("records"): "" when both succeed, else the refusal.
  std::string Refusal() {
    bool missing = false;
    auto files = PowercutRunFiles::Open(platform::Default(), path_.path(), kRun, &missing);
    if (!files.ok()) return files.status().message();
    auto f = files->OpenFile("records");
    if (!f.ok()) return f.status().message();
    auto secret = files->Secret();
    if (!secret.ok()) return secret.status().message();
    EXPECT_EQ(*secret, secret_);
    return "";
  }
  testing_support::TempDir path_;
  std::string dir_;
  std::string secret_ = NewPowercutSecret();
};

TEST_F(PowercutFilesTest, TheWritersOwnRunOpens) {
  EXPECT_EQ(Refusal(), "");
  EXPECT_EQ(secret_.size(), 32u);
  EXPECT_NE(NewPowercutSecret(), secret_);
}

TEST_F(PowercutFilesTest, AGroupWritableDirectoryOrFileIsRefused) {
  ASSERT_EQ(::chmod(dir_.c_str(), 0770), 0);
  EXPECT_NE(Refusal().find("writable by its group"), std::string::npos) << Refusal();
  ASSERT_EQ(::chmod(dir_.c_str(), 0700), 0);
  ASSERT_EQ(::chmod((dir_ + "/records").c_str(), 0646), 0);
  EXPECT_NE(Refusal().find("records is writable by others"), std::string::npos) << Refusal();
}

TEST_F(PowercutFilesTest, AHardLinkedFileIsRefused) {
  ASSERT_EQ(::link((dir_ + "/records").c_str(), (path_.path() + "/elsewhere").c_str()), 0);
  EXPECT_NE(Refusal().find("has 2 links"), std::string::npos) << Refusal();
}

TEST_F(PowercutFilesTest, AFifoIsRefusedAtOnceAndASymlinkIsNotFollowed) {
  ::unlink((dir_ + "/records").c_str());
  ASSERT_EQ(::mkfifo((dir_ + "/records").c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_NE(Refusal().find("not a regular file"), std::string::npos) << Refusal();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5)) << "it waited";
  ::unlink((dir_ + "/records").c_str());
  ASSERT_EQ(::symlink("/etc/passwd", (dir_ + "/records").c_str()), 0);
  EXPECT_NE(Refusal().find("records"), std::string::npos) << Refusal();
}

TEST_F(PowercutFilesTest, AReplacedFileOrDirectoryIsRefused) {
  // records made again under its name (made while the old one lives, so its inode differs).
  std::ofstream(dir_ + "/records.new") << "forged";
  ASSERT_EQ(::rename((dir_ + "/records.new").c_str(), (dir_ + "/records").c_str()), 0);
  EXPECT_NE(Refusal().find("not the file the writer made"), std::string::npos) << Refusal();
  Record();
  EXPECT_EQ(Refusal(), "");
  // The whole directory copied to a new one under the run's name, identity file and all.
  const std::string away = path_.path() + "/away";
  ASSERT_EQ(::rename(dir_.c_str(), away.c_str()), 0);
  ASSERT_EQ(::mkdir(dir_.c_str(), 0700), 0);
  for (const char* name : {"records", "identity", "secret"}) {
    std::ifstream in(away + "/" + name, std::ios::binary);
    std::ofstream(dir_ + "/" + name, std::ios::binary) << in.rdbuf();
    ASSERT_EQ(::chmod((dir_ + "/" + name).c_str(), 0600), 0);
  }
  EXPECT_NE(Refusal().find("not the directory the writer made"), std::string::npos) << Refusal();
}

TEST_F(PowercutFilesTest, AnotherRunsDirectoryUnderThisName) {
  ::unlink((dir_ + "/identity").c_str());
  platform::Platform& p = platform::Default();
  auto d = platform::OpenOwnedAt(p, platform::kNoDirectory, dir_, true);
  ASSERT_TRUE(d.ok());
  ASSERT_TRUE(RecordIdentity(p, d->handle.get(), "fedcba9876543210", {"records"}).ok());
  EXPECT_NE(Refusal().find("names run 'fedcba9876543210'"), std::string::npos) << Refusal();
}

TEST_F(PowercutFilesTest, ASecretOthersCanReadIsRefused) {
  ASSERT_EQ(::chmod((dir_ + "/secret").c_str(), 0644), 0);
  EXPECT_NE(Refusal().find("readable by others"), std::string::npos) << Refusal();
}

TEST(PowercutFilesNotOwned, OwnerModeKindAndLinks) {
  platform::OwnedEntry e;
  e.kind = platform::PathKind::kFile;
  e.uid = 1000;
  e.mode = 0600;
  e.links = 1;
  EXPECT_EQ(NotOwned(e, "f", false, 1000), "");
  EXPECT_NE(NotOwned(e, "f", false, 1001).find("owned by uid 1000"), std::string::npos);
  e.uid = 0;
  EXPECT_EQ(NotOwned(e, "f", false, 1001), "") << "root's file is trusted";
  EXPECT_NE(NotOwned(e, "f", true, 0).find("not a directory"), std::string::npos);
  e.kind = platform::PathKind::kOther;
  EXPECT_NE(NotOwned(e, "f", false, 0).find("not a regular file"), std::string::npos);
}

}  // namespace durprobe::run::powercut_files_test
