// The witness on a filesystem that really fills (a 256 KiB tmpfs this test mounts and unmounts):
// once a batch meets ENOSPC its senders get ERR and GETs are still answered; once room is made,
// new work is taken again without a restart. Root only (mount), skipped otherwise.
#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "tests/run/witness_harness.h"
#include "tests/test_dirs.h"

namespace durprobe::run::powercut_witness_full_disk_test {
namespace {

using witness_harness::Client;
using witness_harness::LoopbackOptions;
using witness_harness::WitnessThread;

const std::string kRun = "00000000000000aa";
const std::string kOtherRun = "00000000000000bb";
const std::string kSecret = "0000000000000000000000000000000a";

std::string Hello(const std::string& run) {
  return fmt::format("HELLO host {} file:fdatasync 4096 16 {}\n", run, kSecret);
}

// Writes zeros to path until the filesystem says ENOSPC; whether it did.
bool Fill(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  char block[4096] = {};
  ssize_t n = 0;
  while ((n = ::write(fd, block, sizeof block)) > 0) {
  }
  const bool full = n < 0 && errno == ENOSPC;
  // The last partial page: byte by byte, so not one is left for the log.
  while (::write(fd, block, 1) == 1) {
  }
  ::close(fd);
  return full;
}

class Tmpfs {
 public:
  explicit Tmpfs(const std::string& dir) : dir_(dir) {
    mounted_ =
        ::mount("durprobe-witness-full", dir.c_str(), "tmpfs", 0, "size=256k,mode=0700") == 0;
  }
  ~Tmpfs() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  bool mounted() const { return mounted_; }

 private:
  std::string dir_;
  bool mounted_ = false;
};

TEST(PowercutWitnessFullDiskTest, ErrToNewWorkGetsServedAndWorkTakenAgainOnceThereIsRoom) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root (mounts a tmpfs of its own)";
  testing_support::TempDir dir;
  Tmpfs fs(dir.path());
  if (!fs.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here: " << std::strerror(errno);
  const std::string log = dir.path() + "/witness.log";
  const std::string filler = dir.path() + "/filler";
  WitnessThread w(LoopbackOptions(log));
  ASSERT_GT(w.port(), 0);
  Client writer(w.port());
  ASSERT_TRUE(writer.Send(Hello(kRun) + "ACK 0 0000000000000001\n"));
  EXPECT_EQ(writer.Line(), "WELCOME " + kRun);
  EXPECT_EQ(writer.Line(), "RCPT 0");
  ASSERT_TRUE(Fill(filler)) << "the tmpfs did not fill";
  // The log's last page may still take a line or two: ack until the disk says no.
  std::string answer;
  for (int seq = 1; seq < 200; ++seq) {
    ASSERT_TRUE(writer.Send(fmt::format("ACK {} {:016x}\n", seq, seq + 1)));
    answer = writer.Line();
    if (!answer.starts_with("RCPT")) break;
  }
  EXPECT_EQ(answer, "ERR the witness's log cannot take more: its disk is full");
  Client newcomer(w.port());
  ASSERT_TRUE(newcomer.Send(Hello(kOtherRun)));
  EXPECT_EQ(newcomer.Line(), "ERR the witness's log cannot take more: its disk is full");
  Client verifier(w.port());
  ASSERT_TRUE(verifier.Send("GET " + kRun + " " + kSecret + "\n"));
  EXPECT_TRUE(verifier.Line().starts_with("RUN " + kRun + " host file:fdatasync 4096 16 "));
  EXPECT_EQ(verifier.Until("END"), "END");
  // Room again: the same witness takes new work.
  ASSERT_EQ(::unlink(filler.c_str()), 0);
  Client later(w.port());
  ASSERT_TRUE(later.Send(Hello(kOtherRun)));
  EXPECT_EQ(later.Line(), "WELCOME " + kOtherRun);
  const Result<WitnessSummary>& done = w.Stop();
  ASSERT_TRUE(done.ok()) << done.status().message();
  EXPECT_GE(done->log_refusals, 2u);
}

}  // namespace
}  // namespace durprobe::run::powercut_witness_full_disk_test
