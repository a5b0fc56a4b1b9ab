// Issue 23 points 9 and 10, as a hostile user would try them: a FIFO as a destination with no
// reader (it blocked with no limit), a FIFO as diff's input, /proc and /sys as targets ("0 B is
// free"), saved reports over 64 MiB (cut, then called truncated JSON), and target paths too long
// for SQLite (every configuration failed with "No such file or directory").
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <string>

#include "tests/cli_runner.h"
#include "tests/fixtures.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::CountLines;
using testing_support::ExpectUsageError;
using testing_support::FixturePath;
using testing_support::RunDurprobe;
using testing_support::RunShell;
using testing_support::Slurp;
using testing_support::TempDir;

const std::string kBinary = DURPROBE_BINARY;

std::string Report() { return FixturePath("diff/a.json"); }

std::string MakeFifo(const TempDir& dir, const std::string& name) {
  std::string path = dir.path() + "/" + name;
  EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
  return path;
}

TEST(HostileInputsCliTest, ProcAndSysAreNotAPlaceToMeasure) {
  for (const char* args : {"probe --quick /proc", "run --quick /sys",
                                  "sqlite --no-probes /proc/self", "check --preset etcd /sys"}) {
    CliRun run = RunDurprobe(args);
    ExpectUsageError(run, "not a place to measure", args);
    EXPECT_EQ(run.err.find("is free"), std::string::npos) << args << ": " << run.err;
  }
}

// The destination check opens a FIFO without waiting: no reader is a one-line error before
// anything is measured (timeout would exit 124 if it blocked).
TEST(HostileInputsCliTest, FifoDestinationWithNoReaderIsRefusedAtOnce) {
  TempDir io, target;
  std::string fifo = MakeFifo(io, "out.fifo");
  for (const std::string& args : {"probe --quick --budget 1s --json " + fifo + " " + target.path(),
                                  "diff --json " + fifo + " " + Report() + " " + Report()}) {
    CliRun run = RunShell("timeout 60 " + kBinary + " " + args);
    ExpectUsageError(run, "is a FIFO that no process is reading", args);
  }
}

// With a reader, the FIFO gets the whole document, and the reader is not handed an end of file
// by the check before it. diff starts once the kernel shows the reader waiting in the FIFO's open
// (started first but not yet there, it is no reader yet: diff refused, and the reader waited
// forever); a reader left waiting is killed, so a failure cannot hang the test.
TEST(HostileInputsCliTest, FifoDestinationWithAReaderGetsTheDocument) {
  TempDir io;
  std::string fifo = MakeFifo(io, "out.fifo");
  std::string got = io.path() + "/got.json";
  CliRun run = RunShell(
      "cat " + fifo + " > " + got +
      " & reader=$!; i=0; while [ $i -lt 300 ] && ! grep -qe partner -e fifo /proc/$reader/wchan;"
      " do sleep 0.05; i=$((i+1)); done; timeout 60 " +
      kBinary + " diff --quiet --json " + fifo + " " + Report() + " " + Report() +
      "; rc=$?; [ $rc -eq 0 ] || kill $reader; wait $reader; exit $rc");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(Slurp(got).find("\"schema\": \"durprobe.diff/1\""), std::string::npos) << Slurp(got);
}

TEST(HostileInputsCliTest, DiffReadsAReportFromAFifo) {
  TempDir io;
  std::string fifo = MakeFifo(io, "in.fifo");
  CliRun run = RunShell("cat " + Report() + " > " + fifo + " & timeout 60 " + kBinary +
                        " diff --json - " + fifo + " " + Report());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("durprobe.diff/1"), std::string::npos);
  // Process substitution hands diff a pipe as /dev/fd/N.
  run = RunShell("bash -c 'timeout 60 " + kBinary + " diff --json - <(cat " + Report() + ") " +
                 Report() + "'");
  EXPECT_EQ(run.exit_code, 0) << run.err;
}

// No writer ever comes: diff waits in open, as cat would, until a signal ends the run; then it
// names the signal and exits 128+signal (it said "Interrupted system call" and exited 2). The
// signal is sent once the kernel shows diff waiting in the FIFO's open (wchan: wait_for_partner),
// not after a sleep.
TEST(HostileInputsCliTest, DiffWaitingOnAFifoNamesTheSignalThatEndsIt) {
  TempDir io;
  std::string fifo = MakeFifo(io, "in.fifo");
  for (const std::string sig : {"TERM", "INT"}) {
    CliRun run = RunShell(
        kBinary + " diff " + fifo + " " + Report() +
        " & pid=$!; i=0; while [ $i -lt 300 ] && ! grep -qe partner -e fifo /proc/$pid/wchan;"
        " do sleep 0.05; i=$((i+1)); done; kill -" +
        sig + " $pid; wait $pid");
    EXPECT_EQ(run.exit_code, sig == "TERM" ? 143 : 130) << run.err;
    EXPECT_EQ(CountLines(run.err), 1) << run.err;
    EXPECT_NE(run.err.find("interrupted by SIG" + sig), std::string::npos) << run.err;
  }
}

// A report is read whole or refused: a valid report padded to exactly 64 MiB is read; one byte
// more is refused with one line naming the limit, never cut and called truncated JSON.
TEST(HostileInputsCliTest, ReportsOver64MiBAreRefusedNotCut) {
  TempDir io;
  std::string text = Slurp(Report());
  ASSERT_FALSE(text.empty());
  const std::size_t limit = std::size_t{64} << 20;
  std::string exact = io.path() + "/exact.json", over = io.path() + "/over.json";
  {
    std::ofstream out(exact);
    out << text << std::string(limit - text.size(), ' ');
  }
  {
    std::ofstream out(over);
    out << text << std::string(limit - text.size() + 1, ' ');
  }
  CliRun run = RunDurprobe("diff --quiet " + exact + " " + Report());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  for (const std::string& args :
       {"diff " + over + " " + Report(), "report --html " + io.path() + "/r.html " + over}) {
    run = RunDurprobe(args);
    ExpectUsageError(run, "is over 64 MiB", args);
    EXPECT_EQ(run.err.find("truncated"), std::string::npos) << run.err;
  }
  run = RunDurprobe("summarize " + over);
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("skipping " + over + ": " + over + " is over 64 MiB"), std::string::npos)
      << run.err;
}

// A directory chain of about length bytes under the temp dir.
std::string LongPath(const TempDir& base, std::size_t length) {
  std::string path = base.path();
  while (path.size() + 51 < length) {
    path += "/" + std::string(50, 'd');
    EXPECT_EQ(::mkdir(path.c_str(), 0700), 0);
  }
  path += "/" + std::string(length - path.size() - 1, 'e');
  EXPECT_EQ(::mkdir(path.c_str(), 0700), 0);
  return path;
}

// SQLite opens no file name over 512 bytes (its unix VFS resolves links and makes names
// absolute first): a run that needs SQLite there is refused up front with the reason; probes
// still measure the path; a path well inside the limit runs SQLite.
TEST(HostileInputsCliTest, PathsTooLongForSqliteAreRefusedUpFront) {
  TempDir base;
  std::string long_path = LongPath(base, 470);
  ASSERT_EQ(long_path.size(), 470u);
  if (platform::Default().KindOf("/proc/self/fd") == platform::PathKind::kDirectory) {
    // SQLite opens its files through the scratch's descriptor (/proc/self/fd/N/...), whose
    // length does not depend on the target's: a long target measures (issue 32 point 1).
    CliRun run = RunDurprobe("sqlite --no-probes --commits 5 --repetitions 1 --warmup 1 --quiet " +
                             long_path);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    return;
  }
  for (const char* args :
       {"sqlite --no-probes --commits 5 --repetitions 1 --warmup 1 ",
        "sqlite --workloads read --budget 2s ", "crashsim --trials 2 ", "run --quick "}) {
    CliRun run = RunDurprobe(args + long_path);
    ExpectUsageError(run, "the path is too long for SQLite", args);
    EXPECT_NE(run.err.find("over 512"), std::string::npos) << run.err;
  }
  CliRun probe =
      RunDurprobe("probe --primitives fsync --patterns overwrite --budget 1s " + long_path);
  EXPECT_EQ(probe.exit_code, 0) << probe.err;
  TempDir other_base;
  std::string fits = LongPath(other_base, 400);
  CliRun sqlite =
      RunDurprobe("sqlite --no-probes --commits 5 --repetitions 1 --warmup 1 --quiet " + fits);
  EXPECT_EQ(sqlite.exit_code, 0) << sqlite.err;
}

}  // namespace
}  // namespace durprobe
