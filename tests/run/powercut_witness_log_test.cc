// The witness's log: a full disk (ENOSPC on the append or on its sync) answers ERR to new HELLO
// and ACK work, keeps serving GET and leaves the log as counted; a file that is not a witness log
// is refused and left byte for byte as it was; a device, a FIFO, a file others may write, a hard
// link, and any symlink on the way are refused; as root, a parent directory `nobody` turned into
// a symlink into root's own directory is never followed and root's file is untouched.
#include <fcntl.h>
#include <fmt/format.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include "tests/run/witness_harness.h"
#include "tests/support/fault_platform.h"
#include "tests/test_dirs.h"

namespace durprobe::run::powercut_witness_log_test {
namespace {

using witness_harness::Client;
using witness_harness::LoopbackOptions;
using witness_harness::WitnessThread;

const std::string kRun = "00000000000000aa";
const std::string kSecret = "0000000000000000000000000000000a";
const std::string kOtherRun = "00000000000000bb";

std::string Hello(const std::string& run) {
  return fmt::format("HELLO host {} file:fdatasync 4096 16 {}\n", run, kSecret);
}

std::string Read(const std::string& path) {
  Result<std::string> text = platform::Default().ReadTextFile(path, 1 << 20);
  return text.ok() ? *text : "(unreadable)";
}

Result<WitnessSummary> Start(const std::string& log) {
  WitnessOptions o = LoopbackOptions(log);
  o.duration_ns = 1;
  return RunWitness(platform::Default(), o, [](const WitnessSummary&) {});
}

// A full disk, on the append (writes) or on its sync, after the first two batches went through.
void ExpectFullDiskAnswersErrAndServesGets(bool on_sync) {
  testing_support::TempDir dir;
  const std::string log = dir.path() + "/witness.log";
  platform::FaultPlatform full(platform::Default());
  if (on_sync) {
    full.FailSyncs(ENOSPC, 2);
  } else {
    full.FailWrites(ENOSPC, 2);
  }
  {
    WitnessThread w(LoopbackOptions(log), full);
    ASSERT_GT(w.port(), 0);
    Client writer(w.port());
    ASSERT_TRUE(writer.Send(Hello(kRun)));
    EXPECT_EQ(writer.Line(), "WELCOME " + kRun);
    ASSERT_TRUE(writer.Send("ACK 0 0000000000000001\n"));
    EXPECT_EQ(writer.Line(), "RCPT 0");
    ASSERT_TRUE(writer.Send("ACK 1 0000000000000002\n"));
    EXPECT_EQ(writer.Line(), "ERR the witness's log cannot take more: its disk is full");
    EXPECT_TRUE(writer.Closed());
    Client newcomer(w.port());
    ASSERT_TRUE(newcomer.Send(Hello(kOtherRun)));
    EXPECT_TRUE(newcomer.Line().starts_with("ERR ")) << "no new run on a full disk";
    Client verifier(w.port());
    ASSERT_TRUE(verifier.Send("GET " + kRun + " " + kSecret + "\n"));
    EXPECT_EQ(verifier.Line(), "RUN " + kRun + " host file:fdatasync 4096 16 1");
    EXPECT_EQ(verifier.Line(), "A 0 0000000000000001");
    EXPECT_EQ(verifier.Line(), "END");
    const Result<WitnessSummary>& done = w.Stop();
    ASSERT_TRUE(done.ok()) << "it kept running: " << done.status().message();
    EXPECT_EQ(done->log_refusals, 2u);
  }
  // What was refused was cut back off the log: a restart knows exactly what was counted.
  WitnessThread again(LoopbackOptions(log));
  EXPECT_EQ(again.loaded_acks(), 1u);
  Client verifier(again.port());
  ASSERT_TRUE(verifier.Send("GET " + kOtherRun + " " + kSecret + "\n"));
  EXPECT_EQ(verifier.Line(), "UNKNOWN " + kOtherRun);
  ASSERT_TRUE(again.Stop().ok());
}

TEST(PowercutWitnessLogTest, AFullDiskOnTheAppendAnswersErrAndGetsGoOn) {
  ExpectFullDiskAnswersErrAndServesGets(false);
}

TEST(PowercutWitnessLogTest, AFullDiskOnTheSyncAnswersErrAndGetsGoOn) {
  ExpectFullDiskAnswersErrAndServesGets(true);
}

TEST(PowercutWitnessLogTest, AFileThatIsNotAWitnessLogIsRefusedAndLeftAsItIs) {
  testing_support::TempDir dir;
  const std::string h = "H " + kRun + " host file:fsync 4096 2 " + kSecret + "\n";
  for (const std::string& content : {
           std::string("a secret of 17 b."),  // no newline: not a half witness line either
           std::string("root:x:0:0:root:/root:/bin/bash\n"),
           h + "not a witness line\n" + "A " + kRun + " 1 00",  // malformed, then half a line
           h + "A " + kRun + " 1 0000000000000001\n" + "\x1b[2J",
       }) {
    const std::string path = dir.path() + "/not-a-log";
    ASSERT_TRUE(platform::Default().WriteTextFile(path, content).ok());
    ::chmod(path.c_str(), 0600);
    Result<WitnessSummary> r = Start(path);
    ASSERT_FALSE(r.ok()) << content;
    EXPECT_EQ(r.status().kind(), Status::Kind::kInvalidArgument);
    EXPECT_NE(r.status().message().find("is not a witness log"), std::string::npos)
        << r.status().message();
    EXPECT_EQ(r.status().message().find('\x1b'), std::string::npos) << "escaped";
    EXPECT_EQ(Read(path), content) << "the file was changed";
  }
  // A witness log cut short by its own crash is repaired: the half line goes.
  const std::string log = dir.path() + "/witness.log";
  ASSERT_TRUE(platform::Default().WriteTextFile(log, h + "A " + kRun + " 0 00000").ok());
  ::chmod(log.c_str(), 0600);
  ASSERT_TRUE(Start(log).ok());
  EXPECT_EQ(Read(log), h);
}

TEST(PowercutWitnessLogTest, DevicesFifosLooseFilesHardLinksAndSymlinksAreRefused) {
  testing_support::TempDir dir;
  const std::string fifo = dir.path() + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string loose = dir.path() + "/loose";
  ASSERT_TRUE(platform::Default().WriteTextFile(loose, "").ok());
  ::chmod(loose.c_str(), 0666);
  const std::string linked = dir.path() + "/linked";
  ASSERT_TRUE(platform::Default().WriteTextFile(linked, "").ok());
  ::chmod(linked.c_str(), 0600);
  ASSERT_EQ(::link(linked.c_str(), (dir.path() + "/second-name").c_str()), 0);
  ASSERT_EQ(::mkdir((dir.path() + "/real").c_str(), 0700), 0);
  ASSERT_EQ(::symlink("real", (dir.path() + "/via").c_str()), 0);
  const std::pair<std::string, std::string> cases[] = {
      {"/dev/zero", "is not a regular file"},
      {fifo, "is not a regular file"},
      {loose, "writable by group or others"},
      {linked, "hard links"},
      {dir.path() + "/via/witness.log", "is a symlink"},  // even one of the running user's
  };
  for (const auto& [path, why] : cases) {
    Result<WitnessSummary> r = Start(path);
    ASSERT_FALSE(r.ok()) << path;
    EXPECT_NE(r.status().message().find(why), std::string::npos) << r.status().message();
  }
  EXPECT_EQ(platform::Default().KindOfNoFollow(dir.path() + "/real/witness.log"),
            platform::PathKind::kMissing);
}

// Runs body as nobody (uid/gid 65534) in a forked child; its exit status.
int AsNobody(const std::function<int()>& body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0) _exit(90);
    _exit(body());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 99;
}

TEST(PowercutWitnessLogTest, ASymlinkedParentMadeByNobodyIsNotFollowed) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root (the attacker runs as nobody)";
  testing_support::TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  const std::string secret = dir.path() + "/root-only";
  ASSERT_EQ(::mkdir(secret.c_str(), 0700), 0);
  const std::string file = secret + "/witness.log";
  ASSERT_TRUE(platform::Default().WriteTextFile(file, "17 bytes of root.").ok());
  ::chmod(file.c_str(), 0600);
  const std::string shared = dir.path() + "/shared";
  ASSERT_EQ(::mkdir(shared.c_str(), 0755), 0);
  ASSERT_EQ(::chown(shared.c_str(), 65534, 65534), 0);
  const std::string owned_by_nobody = shared + "/nobodys.log";
  ASSERT_EQ(AsNobody([&] {
              if (::symlink(secret.c_str(), (shared + "/logs").c_str()) != 0) return 1;
              const int fd = ::open(owned_by_nobody.c_str(), O_CREAT | O_WRONLY, 0600);
              return fd < 0 ? 2 : 0;
            }),
            0);
  for (const std::string& via : {shared + "/logs/witness.log", shared + "/logs/new.log"}) {
    Result<WitnessSummary> r = Start(via);
    ASSERT_FALSE(r.ok()) << via;
    EXPECT_NE(r.status().message().find("is a symlink"), std::string::npos) << r.status().message();
  }
  EXPECT_EQ(Read(file), "17 bytes of root.");
  EXPECT_EQ(platform::Default().KindOfNoFollow(secret + "/new.log"), platform::PathKind::kMissing);
  // A log nobody owns could say anything: refused too.
  Result<WitnessSummary> theirs = Start(owned_by_nobody);
  ASSERT_FALSE(theirs.ok());
  EXPECT_NE(theirs.status().message().find("owned by another user (uid 65534)"), std::string::npos)
      << theirs.status().message();
}

}  // namespace
}  // namespace durprobe::run::powercut_witness_log_test
