// A power-cut run belongs to its writer (issue 53 items 1, 2 and 8), over loopback: root writes,
// `nobody` owns PATH and swaps the run's directory for one of its own (a hot journal naming a
// root-only file as its super-journal; every record rebuilt): root's verify refuses, exit 2, the
// root file survives, and nothing forged passes. A witness that trickles its answer is abandoned
// at verify's deadline, and SIGINT stops verify at once.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "tests/cli_runner.h"
#include "tests/integration/local_witness.h"
#include "tests/test_dirs.h"

namespace durprobe::powercut_owner_test {

using testing_support::CliRun;
using testing_support::kAsNobody;
using testing_support::LocalWitness;
using testing_support::RunDurprobe;
using testing_support::RunShell;
using testing_support::Slurp;

// The system's python (a user's pyenv shim is not nobody's to run): nobody's tool for the swap.
const std::string kPython = "/usr/bin/python3";

std::string RunDirOf(const std::string& data) {
  CliRun ls = RunShell("ls -d " + data + "/.durprobe-powercut-*");
  std::string dir = ls.out;
  while (!dir.empty() && dir.back() == '\n') dir.pop_back();
  return dir;
}

class PowercutOwnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing_support::IsRoot()) GTEST_SKIP() << "needs root: root's verify is attacked";
    if (RunShell(kAsNobody + "true").exit_code != 0) {
      GTEST_SKIP() << "setpriv cannot run a command as nobody (uid 65534)";
    }
    if (RunShell(kAsNobody + kPython + " -c 'import sqlite3'").exit_code != 0) {
      GTEST_SKIP() << "nobody cannot run " << kPython << " with its sqlite3 module";
    }
    ASSERT_FALSE(witness_.address().empty()) << "the witness did not start";
    // PATH belongs to the service user, nobody.
    ASSERT_EQ(::chmod(data_.path().c_str(), 0755), 0);
    ASSERT_EQ(::chown(data_.path().c_str(), 65534, 65534), 0);
    ASSERT_EQ(::chmod(vault_.path().c_str(), 0700), 0);
    precious_ = vault_.path() + "/precious";
    ASSERT_TRUE(platform::Default().WriteTextFile(precious_, "root's own file\n").ok());
    ASSERT_EQ(::chmod(precious_.c_str(), 0600), 0);
  }
  CliRun Verify() {
    return RunDurprobe("powercut verify " + data_.path() + " --witness " + witness_.address());
  }
  testing_support::TempDir files_;
  testing_support::TempDir data_{"/var/tmp"};
  testing_support::TempDir vault_;
  std::string precious_;
  LocalWitness witness_{files_.path()};
};

TEST_F(PowercutOwnerTest, ASwappedSqliteRunWithAHotJournalNamingARootFileIsRefused) {
  CliRun w = RunDurprobe("powercut write " + data_.path() + " --witness " + witness_.address() +
                         " --mode sqlite --journal-mode delete --for 300ms --file-size 64KiB");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const std::string run_dir = RunDirOf(data_.path());
  ASSERT_FALSE(run_dir.empty());
  // nobody renames root's run away and puts its own in its place: a database, and a journal
  // whose trailer names root's file as the super-journal.
  const std::string script =
      "import os, sqlite3, struct\n"
      "d = '" +
      run_dir +
      "'\n"
      "os.rename(d, '" +
      data_.path() +
      "/away')\n"
      "os.mkdir(d, 0o755)\n"
      "db = sqlite3.connect(d + '/records.db')\n"
      "db.execute('CREATE TABLE records(slot INTEGER PRIMARY KEY, seq, sum, body)')\n"
      "db.commit(); db.close()\n"
      "name = b'" +
      precious_ +
      "\\0'\n"
      "magic = bytes.fromhex('d9d505f920a163d7')\n"
      "head = magic + struct.pack('>IIIII', 1, 0, 0, 1, 512) + bytes(484)\n"
      "trailer = struct.pack('>I', 0) + name + struct.pack('>II', len(name), 0) + magic\n"
      "open(d + '/records.db-journal', 'wb').write(head + trailer)\n";
  ASSERT_TRUE(platform::Default().WriteTextFile(files_.path() + "/swap.py", script).ok());
  ASSERT_EQ(::chmod(files_.path().c_str(), 0755), 0);
  CliRun swap = RunShell(kAsNobody + kPython + " " + files_.path() + "/swap.py");
  ASSERT_EQ(swap.exit_code, 0) << swap.err;
  CliRun v = Verify();
  EXPECT_EQ(v.exit_code, 2) << v.out << v.err;
  EXPECT_NE(v.err.find("owned by uid 65534"), std::string::npos) << v.err;
  EXPECT_EQ(testing_support::CountLines(v.err), 1) << v.err;
  EXPECT_EQ(Slurp(precious_), "root's own file\n") << "root's file was touched";
}

TEST_F(PowercutOwnerTest, AForgedRunDirectoryWithEveryRecordRebuiltIsNeverPassed) {
  CliRun w = RunDurprobe("powercut write " + data_.path() + " --witness " + witness_.address() +
                         " --for 300ms --file-size 64KiB");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  const std::string run_dir = RunDirOf(data_.path());
  ASSERT_FALSE(run_dir.empty());
  ASSERT_EQ(Verify().exit_code, 0);
  // The forgery: every record as the writer wrote it (they follow from the run id and the
  // sequence), with the run's own secret and identity even, in a directory nobody owns.
  const std::string forged = data_.path() + "/forged";
  ASSERT_EQ(
      RunShell("cp -a " + run_dir + " " + forged + " && chown -R 65534:65534 " + forged).exit_code,
      0);
  // The cut took every record of root's run.
  ASSERT_EQ(
      RunShell("dd if=/dev/zero of=" + run_dir + "/records bs=64k count=1 conv=notrunc status=none")
          .exit_code,
      0);
  CliRun lost = Verify();
  EXPECT_EQ(lost.exit_code, 1) << lost.out << lost.err;
  EXPECT_NE(lost.out.find("verdict: failed"), std::string::npos) << lost.out;
  CliRun swap = RunShell(kAsNobody + "sh -c 'mv " + run_dir + " " + data_.path() + "/away && mv " +
                         forged + " " + run_dir + "'");
  ASSERT_EQ(swap.exit_code, 0) << swap.err;
  CliRun v = Verify();
  EXPECT_EQ(v.exit_code, 2) << v.out << v.err;
  EXPECT_NE(v.err.find("owned by uid 65534"), std::string::npos) << v.err;
  EXPECT_EQ(v.out.find("verdict: passed"), std::string::npos) << v.out;
}

// A witness that answers GET with a RUN line and then one byte every 50 ms, forever.
class TricklingWitness {
 public:
  TricklingWitness() {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&a), len) != 0 ||
        ::listen(listener_, 4) != 0 ||
        ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
      return;
    }
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~TricklingWitness() {
    stop_ = true;
    ::shutdown(listener_, SHUT_RDWR);
    ::close(listener_);
    if (thread_.joinable()) thread_.join();
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  void Serve() {
    while (!stop_) {
      const int c = ::accept(listener_, nullptr, nullptr);
      if (c < 0) return;
      const std::string line = "RUN 0123456789abcdef host file:fdatasync 4096 16 100000\nA 0 ";
      for (std::size_t i = 0; !stop_; ++i) {
        const char b = i < line.size() ? line[i] : '0';
        if (::send(c, &b, 1, MSG_NOSIGNAL) != 1) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      ::close(c);
    }
  }
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

TEST(PowercutVerifyDeadline, ATricklingWitnessIsAbandonedAndSigintStopsVerifyAtOnce) {
  testing_support::TempDir files;
  testing_support::TempDir data{"/var/tmp"};
  LocalWitness witness(files.path());
  ASSERT_FALSE(witness.address().empty());
  CliRun w = RunDurprobe("powercut write " + data.path() + " --witness " + witness.address() +
                         " --for 200ms --file-size 64KiB");
  ASSERT_EQ(w.exit_code, 0) << w.err;
  TricklingWitness trickle;
  const auto start = std::chrono::steady_clock::now();
  CliRun v = RunDurprobe("powercut verify " + data.path() + " --witness " + trickle.address() +
                         " --timeout 2s");
  const auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(v.exit_code, 2) << v.out << v.err;
  EXPECT_NE(v.err.find("deadline"), std::string::npos) << v.err;
  EXPECT_EQ(testing_support::CountLines(v.err), 1) << v.err;
  EXPECT_LT(took, std::chrono::seconds(30)) << "the deadline did not stop it";
  // SIGINT one second in, with the deadline far away: verify stops with 128 + SIGINT.
  CliRun i = RunShell("timeout --preserve-status -s INT 1 " + std::string(DURPROBE_BINARY) +
                      " powercut verify " + data.path() + " --witness " + trickle.address() +
                      " --timeout 60s");
  EXPECT_EQ(i.exit_code, 128 + SIGINT) << i.err;
  EXPECT_NE(i.err.find("SIGINT"), std::string::npos) << i.err;
}

}  // namespace durprobe::powercut_owner_test
