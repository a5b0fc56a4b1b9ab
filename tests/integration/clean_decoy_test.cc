// `durprobe clean` among hostile decoys (issue 53 point 7). A scratch-named directory with a valid
// marker, 4,000 levels deep, made by nobody in a 1777 PATH, made root's clean die of SIGSEGV at
// `ulimit -s 1024` (it recursed), stop on "Too many open files" at default limits, and so leave
// a real leftover of the user's beside it. Now another user's is never entered, a tree of the
// user's own too deep for any scratch is reported (exit 1), and the real leftover goes.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "platform/scratch.h"
#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::kAsNobody;
using testing_support::RunShell;
using testing_support::TempDir;

const std::string kMarkerText = std::string(platform::kScratchMarkerFirstLine) + "\\npid=";

// Shell words that make, in the current directory, a scratch leftover of a pid no process has,
// with a chain of depth directories inside and a file at its bottom.
std::string MakeLeftover(int pid, int depth) {
  const std::string name = std::string(platform::kScratchPrefix) + std::to_string(pid) + "-0";
  return "mkdir " + name + " && cd " + name + " && printf '" + kMarkerText + std::to_string(pid) +
         "\\n' > " + std::string(platform::kScratchMarker) +
         " && echo data > data && i=0 && while [ $i -lt " + std::to_string(depth) +
         " ]; do mkdir d && cd d || exit 1; i=$((i+1)); done && echo x > bottom";
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
  ASSERT_EQ(RunShell(kAsNobody + "sh -c 'cd " + pub + " && " + MakeLeftover(2147483010, 4000) + "'")
                .exit_code,
            0);
  ASSERT_EQ(RunShell("cd " + pub + " && " + MakeLeftover(2147483011, 2)).exit_code, 0);
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
  ASSERT_EQ(RunShell("cd " + target.path() + " && " + MakeLeftover(2147483012, 4000)).exit_code, 0);
  ASSERT_EQ(RunShell("cd " + target.path() + " && " + MakeLeftover(2147483013, 3)).exit_code, 0);
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

}  // namespace
}  // namespace durprobe
