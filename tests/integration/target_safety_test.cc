// The target is sacred: a populated directory (files, modes, subdirectories, symlinks in and
// out, a read-only file) is byte-for-byte and mode-for-mode the same after every subcommand,
// after faults and after signals; durprobe opens no existing file of the target for writing,
// never goes through a symlink planted where its scratch would be, and runs as a non-root user.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <string>

#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::RunDurprobe;
using testing_support::RunFaulted;
using testing_support::RunShell;
using testing_support::ScratchLeft;
using testing_support::Slurp;
using testing_support::Snapshot;
using testing_support::TempDir;

class TargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    platform::Platform& p = platform::Default();
    const std::string& t = target_.path();
    ASSERT_TRUE(p.WriteTextFile(t + "/data.db", std::string(10000, 'd')).ok());
    ASSERT_TRUE(p.WriteTextFile(t + "/data.db-wal", "not really a wal").ok());
    ASSERT_TRUE(p.WriteTextFile(t + "/probe.dat", "a file named like durprobe's own").ok());
    ASSERT_TRUE(p.WriteTextFile(t + "/read-only", "ro").ok());
    ASSERT_EQ(::chmod((t + "/read-only").c_str(), 0444), 0);
    ASSERT_TRUE(p.MakeDirectory(t + "/sub").ok());
    ASSERT_TRUE(p.WriteTextFile(t + "/sub/nested", "n").ok());
    ASSERT_EQ(::chmod((t + "/sub").c_str(), 0750), 0);
    ASSERT_TRUE(p.WriteTextFile(outside_.path() + "/precious", "outside").ok());
    ASSERT_EQ(testing_support::Symlink(outside_.path(), t + "/link-out"), 0);
    ASSERT_EQ(testing_support::Symlink("data.db", t + "/link-in"), 0);
    ASSERT_EQ(testing_support::Symlink("/nonexistent/dangling", t + "/dangling"), 0);
    before_ = Snapshot(t);
    outside_before_ = Snapshot(outside_.path());
    ASSERT_EQ(before_.size(), 9u);
  }
  void ExpectUntouched(const std::string& after_what) {
    EXPECT_EQ(Snapshot(target_.path()), before_) << "after " << after_what;
    EXPECT_EQ(Snapshot(outside_.path()), outside_before_) << "after " << after_what;
    EXPECT_TRUE(ScratchLeft(target_.path()).empty()) << "after " << after_what;
  }
  TempDir target_, outside_, io_;
  std::map<std::string, std::string> before_, outside_before_;
};

TEST_F(TargetTest, EverySubcommandLeavesTheTargetAsItWas) {
  const std::string t = target_.path();
  const std::string json = io_.path() + "/r.json";
  for (const std::string& args :
       {"inspect " + t, "probe --quick --budget 1s " + t,
        "sqlite --commits 5 --repetitions 1 --warmup 1 --no-probes " + t,
        "sqlite --workloads read,connect,locks,concurrency,wal_growth --budget 3s " + t,
        "compare --no-sqlite --budget 1s --rounds 1 " + t + " " + outside_.path(),
        "run --quick --budget 2s --json " + json + " " + t, "diff " + json + " " + json,
        "clean " + t}) {
    CliRun run = RunDurprobe(args);
    EXPECT_EQ(run.exit_code, 0) << args << "\n" << run.err;
    ExpectUntouched(args);
  }
}

TEST_F(TargetTest, FaultsLeaveTheTargetAsItWas) {
  const std::string t = target_.path();
  for (const std::string env :
       {"DURPROBE_FAULT_SYNC=EIO", "DURPROBE_FAULT_WRITE=ENOSPC", "DURPROBE_FAULT_WRITE=short",
        "DURPROBE_FAULT_OPEN=EACCES DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*.db'"}) {
    CliRun run = RunFaulted(env, "run --quick --budget 2s " + t);
    EXPECT_LT(run.exit_code, 128) << env << "\n" << run.err;  // an error, never a crash
    ExpectUntouched(env);
  }
}

TEST_F(TargetTest, SignalsLeaveTheTargetAsItWas) {
  for (const char* sig : {"INT", "TERM"}) {
    std::string log = io_.path() + "/log-" + sig;
    std::string cmd = "env LD_PRELOAD=" DURPROBE_FAULTLIB " DURPROBE_FAULT_LOG=" + log +
                      " DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*' "
                      "DURPROBE_FAULT_DELAY_MS=200 " DURPROBE_BINARY " run --budget 60s " +
                      target_.path() +
                      " >/dev/null 2>&1 & pid=$!; i=0; while [ $i -lt 600 ] && ! grep -q delay " +
                      log + " 2>/dev/null; do sleep 0.1; i=$((i+1)); done; kill -" + sig +
                      " $pid; wait $pid";
    CliRun run = RunShell(cmd);
    EXPECT_EQ(run.exit_code, std::string(sig) == "INT" ? 130 : 143);
    ExpectUntouched(std::string("SIG") + sig);
  }
}

// strace sees every open of the run: any that can write (O_WRONLY, O_RDWR, O_CREAT, O_TRUNC)
// is inside durprobe's scratch directory.
TEST_F(TargetTest, OpensForWritingOnlyInsideItsScratch) {
  if (RunShell("strace -qq -e trace=none true").exit_code != 0) {
    GTEST_SKIP() << "strace is not installed or cannot trace here";
  }
  std::string trace = io_.path() + "/trace";
  CliRun run = RunShell(
      "strace -f -qq -e trace=open,openat,creat,truncate,rename,unlink,unlinkat "
      "-o " +
      trace + " " DURPROBE_BINARY " run --quick --budget 2s " + target_.path() + " >/dev/null");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::istringstream in(Slurp(trace));
  int writes = 0;
  for (std::string line; std::getline(in, line);) {
    // Inside the scratch durprobe works through the descriptor it holds (/proc/self/fd/N/...),
    // which leads only into the directory it made.
    bool held = line.find("\"/proc/self/fd/") != std::string::npos;
    if (line.find(target_.path()) == std::string::npos && !held) continue;
    bool writing =
        line.find("O_WRONLY") != std::string::npos || line.find("O_RDWR") != std::string::npos ||
        line.find("O_CREAT") != std::string::npos || line.find("O_TRUNC") != std::string::npos ||
        line.find("unlink") != std::string::npos || line.find("rename") != std::string::npos;
    if (!writing) continue;
    ++writes;
    EXPECT_TRUE(held || line.find(target_.path() + "/" + std::string(platform::kScratchPrefix)) !=
                            std::string::npos)
        << line;
  }
  EXPECT_GT(writes, 10);
  ExpectUntouched("strace");
}

// A symlink planted under the exact name durprobe's scratch would take (the shell's pid is
// durprobe's after exec; the first name ends in -0) is left alone: mkdir fails with EEXIST,
// durprobe takes the next name, and nothing is written through the link.
TEST_F(TargetTest, NeverWritesThroughASymlinkNamedLikeItsScratch) {
  std::string cmd = "sh -c 'ln -s " + outside_.path() + " " + target_.path() + "/" +
                    std::string(platform::kScratchPrefix) +
                    "$$-0 && exec " DURPROBE_BINARY " probe --quick --budget 1s " + target_.path() +
                    "' >/dev/null";
  CliRun run = RunShell(cmd);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(Snapshot(outside_.path()), outside_before_);
  std::vector<std::string> left = ScratchLeft(target_.path());
  ASSERT_EQ(left.size(), 1u);  // the planted link, untouched
  EXPECT_EQ(platform::Default().KindOfNoFollow(target_.path() + "/" + left[0]),
            platform::PathKind::kSymlink);
  CliRun clean = RunDurprobe("clean " + target_.path());
  EXPECT_NE(clean.out.find("not durprobe's to remove"), std::string::npos) << clean.out;
  EXPECT_EQ(Snapshot(outside_.path()), outside_before_);
}

// Not root: as nobody on a directory nobody owns, and refused on one it may not write.
TEST_F(TargetTest, RunsAsAnUnprivilegedUser) {
  if (!testing_support::IsRoot()) GTEST_SKIP() << "needs root to switch to an unprivileged uid";
  if (RunShell("command -v setpriv").exit_code != 0) GTEST_SKIP() << "setpriv is not installed";
  if (RunShell("setpriv --reuid=65534 --regid=65534 --clear-groups test -x " DURPROBE_BINARY)
          .exit_code != 0) {
    GTEST_SKIP() << "the unprivileged uid cannot reach the durprobe binary here";
  }
  TempDir owned;
  ASSERT_EQ(::chown(owned.path().c_str(), 65534, 65534), 0);
  std::string as_nobody = "setpriv --reuid=65534 --regid=65534 --clear-groups " DURPROBE_BINARY;
  CliRun run = RunShell(as_nobody + " run --quick --budget 2s --quiet " + owned.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(ScratchLeft(owned.path()).empty());
  CliRun refused = RunShell(as_nobody + " probe --quick " + target_.path());
  testing_support::ExpectUsageError(refused, "Permission denied", "nobody on root's directory");
  ExpectUntouched("unprivileged runs");
}

}  // namespace
}  // namespace durprobe
