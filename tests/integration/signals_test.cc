// SIGINT, SIGTERM, SIGHUP and SIGQUIT at known points of every subcommand: the fault layer's
// latency holds the run inside a chosen call (a probe's sync, a commit's sync, each workload's
// syncs, inspect's read of mountinfo) and logs it, the test waits for that line, then signals
// durprobe's pid. Each run must exit 128 + signal with one line on stderr naming the signal, leave
// no scratch and no process (a forked worker dies with the run). SIGKILL cannot be caught: it
// leaves a marked scratch directory that `durprobe clean` removes.
#include <gtest/gtest.h>
#include <signal.h>

#include <string>

#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CountLines;
using testing_support::ProcessesMentioning;
using testing_support::ScratchLeft;
using testing_support::Slurp;
using testing_support::TempDir;

struct Point {
  const char* name;
  const char* args;       // before the path
  const char* delay;      // fault layer settings that hold the run at the point
  const char* wait_for;   // a log line containing this means the run is there
  bool in_child = false;  // ... and was logged by a forked workload process, not durprobe itself
};

struct Ended {
  int exit_code = -1;
  std::string err;
  bool reached = false;
};

// Starts durprobe in the background, waits (up to 60 s) for the point, sends the signal,
// waits for the exit. The shell's `wait` gives the exit status.
Ended SignalAt(const Point& p, const std::string& dir, const std::string& io, const char* sig) {
  std::string log = io + "/faults.log";
  std::string there = "grep -- '" + std::string(p.wait_for) + "' " + log +
                      " 2>/dev/null | grep -q" + (p.in_child ? "v \"pid=$pid$\"" : " .");
  std::string cmd = "env LD_PRELOAD=" DURPROBE_FAULTLIB " DURPROBE_FAULT_LOG=" + log + " " +
                    p.delay + " " DURPROBE_BINARY " " + p.args + " " + dir + " >/dev/null 2>" + io +
                    "/err & pid=$!; i=0; while [ $i -lt 600 ] && ! " + there +
                    "; do sleep 0.1; i=$((i+1)); done; " + there + " && touch " + io +
                    "/reached; kill -" + sig + " $pid; wait $pid; echo $? > " + io + "/rc";
  EXPECT_EQ(std::system(("(" + cmd + ")").c_str()), 0);
  Ended e;
  e.exit_code = std::atoi(Slurp(io + "/rc").c_str());
  e.err = Slurp(io + "/err");
  e.reached = platform::Default().KindOf(io + "/reached") == platform::PathKind::kFile;
  return e;
}

constexpr const char* kHoldSyncs =
    "DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*' DURPROBE_FAULT_DELAY_MS=300";

const Point kPoints[] = {
    {"Inspect", "inspect",
     "DURPROBE_FAULT_PATH='*mountinfo' DURPROBE_FAULT_DELAY_ON=open "
     "DURPROBE_FAULT_DELAY_MS=1000",
     "mountinfo delay"},
    {"ProbeOverwrite", "probe --primitives fsync --patterns overwrite --budget 60s", kHoldSyncs,
     "probe.dat delay"},
    {"ProbeAppend", "probe --primitives fdatasync --patterns append --budget 60s", kHoldSyncs,
     "probe.dat delay"},
    {"ProbeDirFsync", "probe --primitives dir_fsync --patterns create --budget 60s",
     "DURPROBE_FAULT_PATH='*/.durprobe-scratch-*' DURPROBE_FAULT_DELAY_MS=300", "scratch"},
    {"SqliteMatrix", "sqlite --no-probes --journal-modes wal --synchronous full --budget 60s",
     kHoldSyncs, ".db"},
    {"WorkloadRead", "sqlite --workloads read --budget 60s", kHoldSyncs, "read.db"},
    {"WorkloadConnect", "sqlite --workloads connect --budget 60s", kHoldSyncs, "connect.db"},
    {"WorkloadLocks", "sqlite --workloads locks --budget 60s", kHoldSyncs, "locks.db"},
    {"WorkloadConcurrency", "sqlite --workloads concurrency --budget 60s", kHoldSyncs,
     "concurrency.db"},
    // In a child: 100 ms per sync holds it (20 ms was too short under load); 300 ms takes 15 s.
    {"WorkloadLocksInChildProcess", "sqlite --workloads locks --budget 60s",
     "DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*' DURPROBE_FAULT_DELAY_MS=100", "locks.db", true},
    {"WorkloadConcurrencyInChildProcess", "sqlite --workloads concurrency --budget 60s",
     "DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*' DURPROBE_FAULT_DELAY_MS=20", "concurrency.db",
     true},
    {"WorkloadWalGrowth", "sqlite --workloads wal_growth --budget 60s", kHoldSyncs, ".db"},
    {"Compare", "compare --no-sqlite --primitives fsync --patterns overwrite --budget 60s",
     kHoldSyncs, "probe.dat delay"},
    {"Run", "run --budget 60s", kHoldSyncs, "delay"},
};

class SignalPointTest
    : public ::testing::TestWithParam<std::tuple<Point, std::pair<const char*, int>>> {};

TEST_P(SignalPointTest, LeavesNoScratchNoProcessAndExits128PlusSignal) {
  auto [point, signal] = GetParam();
  TempDir dir, io;
  std::string args = point.args;
  std::string target = dir.path();
  if (args.rfind("compare", 0) == 0) {  // compare needs two paths: the temp dir twice over
    ASSERT_TRUE(platform::Default().MakeDirectory(dir.path() + "/second").ok());
    target = dir.path() + "/second " + dir.path();
  }
  Ended e = SignalAt(point, target, io.path(), signal.first);
  ASSERT_TRUE(e.reached) << point.name << " never reached " << point.wait_for << "\n" << e.err;
  EXPECT_EQ(e.exit_code, 128 + signal.second) << e.err;
  EXPECT_EQ(CountLines(e.err), 1) << e.err;
  EXPECT_NE(e.err.find("interrupted by SIG" + std::string(signal.first)), std::string::npos)
      << e.err;
  EXPECT_TRUE(ScratchLeft(dir.path()).empty());
  EXPECT_TRUE(ScratchLeft(dir.path() + "/second").empty());
  EXPECT_TRUE(ProcessesMentioning(dir.path()).empty()) << "orphan process after " << point.name;
}

INSTANTIATE_TEST_SUITE_P(SignalsTest, SignalPointTest,
                         ::testing::Combine(::testing::ValuesIn(kPoints),
                                            ::testing::Values(std::make_pair("INT", SIGINT),
                                                              std::make_pair("TERM", SIGTERM),
                                                              std::make_pair("HUP", SIGHUP),
                                                              std::make_pair("QUIT", SIGQUIT))),
                         [](const auto& param_info) {
                           return std::string(std::get<0>(param_info.param).name) +
                                  std::get<1>(param_info.param).first;
                         });

// SIGKILL: the scratch stays, marked; clean removes it and nothing else.
TEST(SignalsTest, SigkillLeavesMarkedScratchThatCleanRemoves) {
  TempDir dir, io;
  ASSERT_TRUE(platform::Default().WriteTextFile(dir.path() + "/user-file", "keep").ok());
  Point p{"Kill", "probe --primitives fsync --patterns overwrite --budget 60s", kHoldSyncs,
          "probe.dat delay"};
  Ended e = SignalAt(p, dir.path(), io.path(), "KILL");
  ASSERT_TRUE(e.reached);
  EXPECT_EQ(e.exit_code, 128 + SIGKILL);
  std::vector<std::string> left = ScratchLeft(dir.path());
  ASSERT_EQ(left.size(), 1u);
  EXPECT_TRUE(platform::IsScratchDirectory(platform::Default(), dir.path() + "/" + left[0]));
  testing_support::CliRun clean = testing_support::RunDurprobe("clean " + dir.path());
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_NE(clean.out.find("removed " + dir.path() + "/" + left[0]), std::string::npos)
      << clean.out;
  EXPECT_TRUE(ScratchLeft(dir.path()).empty());
  EXPECT_EQ(Slurp(dir.path() + "/user-file"), "keep");
}

// SIGKILL of durprobe while forked workers run: the workers die with it (Linux's
// PR_SET_PDEATHSIG), they do not run on against the scratch. The kernel signals them as the
// parent exits; the loop only waits for them to be gone (bounded, so a survivor fails).
TEST(SignalsTest, SigkillTakesTheForkedWorkersWithIt) {
  TempDir dir, io;
  Point p{"KillWithWorkers", "sqlite --workloads concurrency --budget 60s",
          "DURPROBE_FAULT_PATH='*/.durprobe-scratch-*/*' DURPROBE_FAULT_DELAY_MS=20",
          "concurrency.db", true};
  Ended e = SignalAt(p, dir.path(), io.path(), "KILL");
  ASSERT_TRUE(e.reached) << e.err;
  EXPECT_EQ(e.exit_code, 128 + SIGKILL);
  std::vector<int> left = ProcessesMentioning(dir.path());
  for (int i = 0; i < 100 && !left.empty(); ++i) {
    std::system("sleep 0.1");
    left = ProcessesMentioning(dir.path());
  }
  EXPECT_TRUE(left.empty()) << left.size() << " worker(s) outlived a SIGKILLed durprobe";
  (void)testing_support::RunDurprobe("clean " + dir.path());
}

}  // namespace
}  // namespace durprobe
