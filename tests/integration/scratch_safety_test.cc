// Issue 23 point 8: scratch removal goes by descriptor, never by path, and never enters a
// filesystem mounted inside a scratch directory. A target renamed while a run holds it loses
// no scratch; `clean` on a marked scratch with a tmpfs or a bind mount inside removes nothing of
// it (it said EBUSY after deleting the inner mount's files), says so and exits 1. And clean among
// hostile decoys (issue 53 point 7, below).
#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include "platform/scratch.h"
#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::CountLines;
using testing_support::RunDurprobe;
using testing_support::ScratchLeft;
using testing_support::Slurp;
using testing_support::TempDir;

platform::Platform& P() { return platform::Default(); }

// A scratch directory as a SIGKILLed run leaves it: named, marked, its pid long gone.
std::string LeftScratch(const std::string& target) {
  std::string dir = target + "/" + std::string(platform::kScratchPrefix) + "999997-0";
  EXPECT_TRUE(P().MakeDirectory(dir).ok());
  EXPECT_TRUE(
      P().WriteTextFile(dir + "/" + std::string(platform::kScratchMarker),
                        std::string(platform::kScratchMarkerFirstLine) + "\npid=2147483002\n")
          .ok());
  EXPECT_TRUE(P().WriteTextFile(dir + "/commit-0.db", "scratch data").ok());
  EXPECT_TRUE(P().MakeDirectory(dir + "/mnt").ok());
  return dir;
}

class ScratchMountTest : public ::testing::Test {
 protected:
  void TearDown() override {
    for (const std::string& m : mounted_) ::umount2(m.c_str(), MNT_DETACH);
  }
  // Mounts a tmpfs (or, with bind_from, a bind mount of that directory) at dir.
  bool Mount(const std::string& dir, const std::string& bind_from = "") {
    int rc = bind_from.empty() ? ::mount("tmpfs", dir.c_str(), "tmpfs", 0, "size=1m")
                               : ::mount(bind_from.c_str(), dir.c_str(), nullptr, MS_BIND, nullptr);
    if (rc != 0) return false;
    mounted_.push_back(dir);
    return true;
  }
  void Unmount(const std::string& dir) {
    ASSERT_EQ(::umount2(dir.c_str(), 0), 0);
    mounted_.erase(std::find(mounted_.begin(), mounted_.end(), dir));
  }
  // clean refuses the scratch whole, names the mount, exits 1; after umount it removes it.
  void ExpectCleanKeepsItWhole(const std::string& target, const std::string& scratch) {
    CliRun run = RunDurprobe("clean " + target);
    EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
    EXPECT_EQ(CountLines(run.err), 1) << run.err;
    EXPECT_NE(run.err.find("mounted inside it at " + scratch + "/mnt"), std::string::npos)
        << run.err;
    EXPECT_EQ(P().KindOf(scratch + "/mnt/foreign"), platform::PathKind::kFile);
    EXPECT_EQ(P().KindOf(scratch + "/commit-0.db"), platform::PathKind::kFile);
    EXPECT_EQ(Slurp(scratch + "/mnt/foreign"), "not durprobe's");
    Unmount(scratch + "/mnt");
    run = RunDurprobe("clean " + target);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(P().KindOf(scratch), platform::PathKind::kMissing);
  }
  std::vector<std::string> mounted_;
};

TEST_F(ScratchMountTest, CleanNeverEntersATmpfsMountedInsideScratch) {
  TempDir target;
  std::string scratch = LeftScratch(target.path());
  if (!Mount(scratch + "/mnt")) GTEST_SKIP() << "needs root and permission to mount a tmpfs";
  ASSERT_TRUE(P().WriteTextFile(scratch + "/mnt/foreign", "not durprobe's").ok());
  ExpectCleanKeepsItWhole(target.path(), scratch);
}

// A bind mount of the same filesystem keeps the device number: only the mount-root attribute
// (statx) tells it apart.
TEST_F(ScratchMountTest, CleanNeverEntersABindMountOfTheSameFilesystem) {
  TempDir target, other;
  std::string scratch = LeftScratch(target.path());
  ASSERT_TRUE(P().WriteTextFile(other.path() + "/foreign", "not durprobe's").ok());
  if (!Mount(scratch + "/mnt", other.path())) GTEST_SKIP() << "needs root to bind mount";
  ExpectCleanKeepsItWhole(target.path(), scratch);
  EXPECT_EQ(Slurp(other.path() + "/foreign"), "not durprobe's");
}

TEST_F(ScratchMountTest, ARunsOwnRemovalKeepsAScratchWithAMountInside) {
  TempDir target;
  auto dir = platform::ScratchDir::Create(P(), target.path());
  ASSERT_TRUE(dir.ok());
  std::string inner = (*dir)->FilePath("mnt");
  ASSERT_TRUE(P().MakeDirectory(inner).ok());
  if (!Mount(inner)) GTEST_SKIP() << "needs root and permission to mount a tmpfs";
  ASSERT_TRUE(P().WriteTextFile(inner + "/foreign", "not durprobe's").ok());
  Status removed = (*dir)->Remove();
  EXPECT_FALSE(removed.ok());
  EXPECT_NE(removed.message().find("mounted inside it at " + (*dir)->shown_path() + "/mnt"),
            std::string::npos)
      << removed.message();
  EXPECT_EQ(Slurp(inner + "/foreign"), "not durprobe's");
  Unmount(inner);
  EXPECT_TRUE(platform::RemoveTree(P(), (*dir)->shown_path()).ok());
}

// The target's parent renamed while a probe holds a sync: the run's cleanup still finds its
// scratch (it holds the directory open) and leaves none in the renamed directory.
TEST(ScratchRenameTest, TargetRenamedDuringARunLeavesNoScratch) {
  TempDir parent, io;
  std::string before = parent.path() + "/db", after = parent.path() + "/db-moved";
  ASSERT_TRUE(P().MakeDirectory(before).ok());
  std::string log = io.path() + "/faults.log";
  std::string cmd = "env LD_PRELOAD=" DURPROBE_FAULTLIB " DURPROBE_FAULT_LOG=" + log +
                    " DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*' DURPROBE_FAULT_DELAY_MS=200 " +
                    DURPROBE_BINARY " probe --primitives fsync --patterns overwrite --budget 3s " +
                    before + " >/dev/null 2>" + io.path() + "/err & pid=$!; i=0; while [ $i -lt " +
                    "600 ] && ! grep -q 'probe.dat delay' " + log + " 2>/dev/null; do sleep 0.1; " +
                    "i=$((i+1)); done; mv " + before + " " + after + "; wait $pid; echo $? > " +
                    io.path() + "/rc";
  ASSERT_EQ(std::system(("(" + cmd + ")").c_str()), 0);
  int rc = std::atoi(Slurp(io.path() + "/rc").c_str());
  std::string err = Slurp(io.path() + "/err");
  EXPECT_LT(rc, 128) << err;
  ASSERT_EQ(P().KindOf(after), platform::PathKind::kDirectory) << "the rename never happened";
  EXPECT_TRUE(ScratchLeft(after).empty()) << err;
  EXPECT_EQ(err.find("could not remove scratch"), std::string::npos) << err;
}

// Issue 32 point 4: a live run under another program name (a copy of the binary named `dp`, as
// a pid seen from another namespace would read) holds its marker's lock, so `clean` keeps its
// scratch and the run completes. clean used to remove it as a reused pid.
TEST(ScratchLockTest, CleanKeepsTheScratchOfALiveRunUnderAnotherName) {
  TempDir bin, target, io;
  std::string dp = bin.path() + "/dp";
  ASSERT_EQ(testing_support::RunShell("cp " DURPROBE_BINARY " " + dp).exit_code, 0);
  // Each sync held 100 ms, so the run is still going when clean comes.
  std::string cmd =
      "env LD_PRELOAD=" DURPROBE_FAULTLIB
      " DURPROBE_FAULT_PATH='*/probe.dat' "
      "DURPROBE_FAULT_DELAY_MS=100 " +
      dp + " probe --primitives fsync --patterns overwrite --budget 4s " + target.path() +
      " >/dev/null 2>" + io.path() + "/err & pid=$!; i=0; " + "while [ $i -lt 600 ] && ! ls -d " +
      target.path() +
      "/.durprobe-scratch-*/DURPROBE_SCRATCH >/dev/null 2>&1; do sleep 0.05; i=$((i+1)); " +
      "done; sleep 0.2; " + DURPROBE_BINARY " clean " + target.path() + " > " + io.path() +
      "/clean; wait $pid; echo $? > " + io.path() + "/rc";
  ASSERT_EQ(std::system(("(" + cmd + ")").c_str()), 0);
  std::string err = Slurp(io.path() + "/err");
  EXPECT_EQ(std::atoi(Slurp(io.path() + "/rc").c_str()), 0) << err;
  EXPECT_NE(Slurp(io.path() + "/clean").find("kept "), std::string::npos)
      << Slurp(io.path() + "/clean");
  EXPECT_TRUE(ScratchLeft(target.path()).empty());
}

namespace clean_decoy {

// `durprobe clean` among hostile decoys (issue 53 point 7). A scratch-named directory with a valid
// marker, 4,000 levels deep, made by nobody in a 1777 PATH, made root's clean die of SIGSEGV at
// `ulimit -s 1024` (it recursed), stop on "Too many open files" at default limits, and so leave
// a real leftover of the user's beside it. Now another user's is never entered, a tree of the
// user's own too deep for any scratch is reported (exit 1), and the real leftover goes.

using testing_support::kAsNobody;
using testing_support::RunShell;

// Makes, in dir, a scratch leftover of a pid no process has (marker, a file) with a chain of
// depth directories inside and a file at its bottom, by descriptor (the path outgrows PATH_MAX),
// in a child process that first becomes uid (65534: nobody) unless it is 0. Whether it worked.
bool MakeLeftover(const std::string& dir, int pid, int depth, uid_t uid = 0) {
  const pid_t child = ::fork();
  if (child < 0) return false;
  if (child == 0) {
    if (uid != 0 && (::setgroups(0, nullptr) != 0 || ::setresgid(uid, uid, uid) != 0 ||
                     ::setresuid(uid, uid, uid) != 0)) {
      ::_exit(1);
    }
    const std::string name = std::string(platform::kScratchPrefix) + std::to_string(pid) + "-0";
    const std::string marker =
        std::string(platform::kScratchMarkerFirstLine) + "\npid=" + std::to_string(pid) + "\n";
    int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0 || ::mkdirat(fd, name.c_str(), 0700) != 0) ::_exit(1);
    int top = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY);
    int m = ::openat(top, std::string(platform::kScratchMarker).c_str(), O_WRONLY | O_CREAT, 0600);
    int data = ::openat(top, "data", O_WRONLY | O_CREAT, 0600);
    if (top < 0 || m < 0 || data < 0 ||
        ::write(m, marker.data(), marker.size()) != static_cast<ssize_t>(marker.size())) {
      ::_exit(1);
    }
    fd = top;
    for (int i = 0; i < depth; ++i) {
      if (::mkdirat(fd, "d", 0700) != 0) ::_exit(1);
      int sub = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
      ::close(fd);
      if (sub < 0) ::_exit(1);
      fd = sub;
    }
    ::_exit(::openat(fd, "bottom", O_WRONLY | O_CREAT, 0600) >= 0 ? 0 : 1);
  }
  int status = 0;
  return ::waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::string Leftover(const std::string& dir, int pid) {
  return dir + "/" + std::string(platform::kScratchPrefix) + std::to_string(pid) + "-0";
}

// At `ulimit -s 1024`, where the recursive walk overflowed its stack.
CliRun CleanWithSmallStack(const std::string& dir) {
  return RunShell("timeout -s KILL 300 bash -c 'ulimit -s 1024; exec " DURPROBE_BINARY " clean " +
                  dir + "'");
}

TEST(CleanDecoyTest, NobodysDeepDecoyNeverKeepsTheRealLeftoverFromGoing) {
  if (!testing_support::IsRoot()) GTEST_SKIP() << "needs root: durprobe as root, nobody attacks";
  if (RunShell(kAsNobody + "true").exit_code != 0) {
    GTEST_SKIP() << "setpriv cannot run a command as nobody (uid 65534)";
  }
  TempDir place;
  ASSERT_EQ(::chmod(place.path().c_str(), 0755), 0);
  const std::string pub = place.path() + "/pub";
  ASSERT_EQ(::mkdir(pub.c_str(), 0755), 0);
  ASSERT_EQ(::chmod(pub.c_str(), 01777), 0);
  ASSERT_TRUE(MakeLeftover(pub, 2147483010, 4000, 65534));
  // A decoy with durprobe's marker: only its owner tells it from a real leftover.
  ASSERT_TRUE(platform::IsScratchDirectory(platform::Default(), Leftover(pub, 2147483010)));
  ASSERT_TRUE(MakeLeftover(pub, 2147483011, 2));
  CliRun clean = CleanWithSmallStack(pub);
  EXPECT_EQ(clean.exit_code, 0) << "139 is SIGSEGV\n" << clean.out << clean.err;
  EXPECT_NE(clean.out.find("removed " + Leftover(pub, 2147483011)), std::string::npos) << clean.out;
  EXPECT_EQ(platform::Default().KindOf(Leftover(pub, 2147483011)), platform::PathKind::kMissing);
  EXPECT_NE(clean.out.find("kept " + Leftover(pub, 2147483010) + " (owned by uid 65534"),
            std::string::npos)
      << clean.out;
  EXPECT_EQ(platform::Default().KindOf(Leftover(pub, 2147483010) + "/data"),
            platform::PathKind::kFile);
  EXPECT_EQ(RunShell("rm -rf " + pub).exit_code, 0);
}

// The same depth in a leftover of the user's own: walked without recursion, left where it is
// deeper than any scratch, reported on stderr (exit 1); the other leftover goes.
TEST(CleanDecoyTest, AnOwnTreeTooDeepIsReportedAndTheRestCleaned) {
  TempDir target;
  ASSERT_TRUE(MakeLeftover(target.path(), 2147483012, 4000));
  ASSERT_TRUE(MakeLeftover(target.path(), 2147483013, 3));
  CliRun clean = CleanWithSmallStack(target.path());
  EXPECT_EQ(clean.exit_code, 1) << clean.out << clean.err;
  EXPECT_NE(clean.err.find("durprobe: could not remove " + Leftover(target.path(), 2147483012)),
            std::string::npos)
      << clean.err;
  EXPECT_NE(clean.err.find("deeper than 64 levels"), std::string::npos) << clean.err;
  EXPECT_EQ(testing_support::CountLines(clean.err), 1) << clean.err;
  EXPECT_EQ(platform::Default().KindOf(Leftover(target.path(), 2147483013)),
            platform::PathKind::kMissing);
  EXPECT_EQ(RunShell("rm -rf " + Leftover(target.path(), 2147483012)).exit_code, 0);
}

}  // namespace clean_decoy

}  // namespace
}  // namespace durprobe
