// Resource limits an unprivileged user can set (issue 23, points 1 and 4): `ulimit -u` makes a
// later workload fork or a worker thread fail. The run must end on its own (no hang: the
// earlier workers see end of stream), report the failure as that workload's error (exit 1),
// never abort in std::terminate, and leave no scratch and no process. `timeout` only turns a
// hang into a failing exit code; nothing here depends on how long a run takes.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::ProcessesMentioning;
using testing_support::RunShell;
using testing_support::ScratchLeft;
using testing_support::TempDir;

using testing_support::kAsNobody;

// durprobe ARGS DIR as uid 65534 under `ulimit -LETTER limit` (-u processes, -v address
// space in KiB); empty exit code -1 when skipped.
CliRun LimitedRun(const std::string& dir, int limit, const std::string& args, char letter = 'u') {
  return RunShell("timeout -s KILL 300 " + std::string(kAsNobody) + "bash -c 'ulimit -" +
                  std::string(1, letter) + " " + std::to_string(limit) +
                  "; exec " DURPROBE_BINARY " " + args + " " + dir + "'");
}

// durprobe ARGS DIR as uid 65534 under `ulimit LIMIT` (e.g. "-s 32").
CliRun UnderLimit(const std::string& dir, const std::string& limit, const std::string& args) {
  // Descriptors the test runner left open (ctest's) would count against `ulimit -n`: closed.
  return RunShell("timeout -s KILL 300 " + std::string(kAsNobody) +
                  "bash -c 'for fd in 3 4 5 6 7 8 9; do eval \"exec $fd>&-\"; done; ulimit " +
                  limit + "; exec " DURPROBE_BINARY " " + args + " " + dir + "'");
}

class ProcessLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing_support::IsRoot()) GTEST_SKIP() << "needs root to run durprobe as uid 65534";
    if (RunShell(std::string(kAsNobody) + "test -x " DURPROBE_BINARY).exit_code != 0) {
      GTEST_SKIP() << "uid 65534 cannot reach the binary";
    }
    ASSERT_EQ(::chmod(dir_.path().c_str(), 0777), 0);
  }
  void ExpectCleanEnd() {
    EXPECT_TRUE(ScratchLeft(dir_.path()).empty());
    EXPECT_TRUE(ProcessesMentioning(dir_.path()).empty()) << "a worker outlived the run";
  }
  TempDir dir_;
};

// Point 1: the 4th worker cannot be forked; the three started ones end, and so does the run.
TEST_F(ProcessLimitsTest, ConcurrencyWorkerThatCannotForkEndsTheRun) {
  CliRun r = LimitedRun(dir_.path(), 4,
                        "sqlite --workloads concurrency --threads 1 --processes 4 --budget 10s");
  EXPECT_EQ(r.exit_code, 1) << "137 means it hung until timeout killed it\n" << r.err;
  EXPECT_NE(r.err.find("concurrency default via processes: fork"), std::string::npos) << r.err;
  ExpectCleanEnd();
}

// Point 4: a worker thread the OS refuses is the workload's error, not an abort.
TEST_F(ProcessLimitsTest, ThreadThatCannotStartIsTheWorkloadsError) {
  CliRun r = LimitedRun(dir_.path(), 5,
                        "sqlite --workloads concurrency --threads 10 --processes 0 --budget 10s");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("concurrency default via threads: cannot start a thread"), std::string::npos)
      << r.err;
  ExpectCleanEnd();
}

// Issue 53 point 9: check --preset etcd at `ulimit -n 8` left .durprobe-scratch-PID-1 behind:
// removing it needs a descriptor to list it, and without one the removal gave up. It now gives
// up the marker's descriptor and tries again.
TEST_F(ProcessLimitsTest, ACheckOutOfDescriptorsLeavesNoScratch) {
  CliRun r = UnderLimit(dir_.path(), "-n 8", "check --preset etcd --quick");
  EXPECT_LT(r.exit_code, 128) << r.err;
  ExpectCleanEnd();
}

// Issue 32 item 10: under `ulimit -v` the 16-writer cell's threads cannot all get a stack. The
// cell is an error row, and like any failed measurement it is a stderr line, a probe_error
// finding and exit 1 (docs/errors.md "Failures during measurement"), not exit 0.
TEST_F(ProcessLimitsTest, AWriterThreadThatCannotStartIsExitOne) {
  CliRun r = LimitedRun(dir_.path(), 40000,
                        "probe --primitives fdatasync --patterns overwrite --writers 1,16 "
                        "--writers-modes threads --budget 4s --json -",
                        'v');
  // Where the stacks took the address space first, a writer that did start may find no heap for
  // its histogram instead: the same failed cell, said so (never std::terminate).
  const std::string cell = "16 writers threads fdatasync 4 KiB: ";
  bool refused = r.err.find(cell + "cannot start a thread") != std::string::npos ||
                 r.err.find(cell + "a writer could not allocate") != std::string::npos;
  ASSERT_TRUE(refused) << "the limit let every writer run, so this run proves nothing\n" << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.find("terminate called"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("\"probe_error\""), std::string::npos);
}

// Issue 32 point 11: the probes' histograms (18 KiB each) sat on the stack, several to a frame:
// `ulimit -s 128` was a SIGSEGV with the scratch left. Now 128 KiB measures, and below what
// durprobe needs (64 KiB) it refuses in one line before making any scratch.
TEST_F(ProcessLimitsTest, ASmallStackMeasuresAndATinyOneIsRefused) {
  CliRun r = UnderLimit(dir_.path(), "-s 128", "run --budget 3s");
  EXPECT_LT(r.exit_code, 2) << "139 is the SIGSEGV\n" << r.err;
  ExpectCleanEnd();
  r = UnderLimit(dir_.path(), "-s 64", "probe --budget 2s");
  EXPECT_LT(r.exit_code, 2) << "139 is the SIGSEGV\n" << r.err;
  ExpectCleanEnd();
  // (At 16 KiB the loader or static initialisation may overflow before main: a SIGSEGV no code
  // of durprobe's can turn into a message, so that limit is not tested here.)
  for (const char* tiny : {"-s 32", "-s 24"}) {
    r = UnderLimit(dir_.path(), tiny, "probe --budget 2s");
    EXPECT_EQ(r.exit_code, 2) << tiny << "\n" << r.err;
    EXPECT_EQ(testing_support::CountLines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("the stack size limit is"), std::string::npos) << r.err;
    ExpectCleanEnd();
  }
}

// Point 12: too few descriptors to make the marker: one line, exit 2, and no empty scratch left.
TEST_F(ProcessLimitsTest, TooFewDescriptorsLeavesNoScratch) {
  CliRun r = UnderLimit(dir_.path(), "-n 4", "probe --budget 2s");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(testing_support::CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("Too many open files"), std::string::npos) << r.err;
  ExpectCleanEnd();
}

// Point 8: a write past `ulimit -f` was a silent SIGXFSZ death with the scratch left. Now it
// ends the run in one line naming the limit, scratch removed; and a --file-size under the limit
// measures, the reference probe's file included (it was a fixed 1 MiB).
TEST_F(ProcessLimitsTest, AFileSizeLimitEndsTheRunInOneLine) {
  CliRun r = UnderLimit(dir_.path(), "-f 512", "probe --primitives fsync --budget 2s");
  EXPECT_EQ(r.exit_code, 128 + 25) << r.err;  // 128 + SIGXFSZ, as for the other signals
  EXPECT_EQ(testing_support::CountLines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("SIGXFSZ"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("scratch removed"), std::string::npos) << r.err;
  ExpectCleanEnd();
  r = UnderLimit(dir_.path(), "-f 512",
                 "probe --primitives fsync --patterns overwrite --file-size 256k --budget 2s");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("SIGXFSZ"), std::string::npos) << r.err;
  ExpectCleanEnd();
}

}  // namespace
}  // namespace durprobe
