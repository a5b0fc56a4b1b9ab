// Acceptance: the syncs the counting VFS reports are the sync system calls the process makes.
// Runs the durprobe binary under strace -f -e trace=fsync,fdatasync for a fixed number of
// commits and compares (1) every sync call of the run with the VFS's total over all phases and
// (2) the calls per extra commit between a short and a longer run with syncs_per_commit.total.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "run/reference.h"
#include "sqlite_bench/device_warmup.h"
#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::MakeTempDir;
using testing_support::RunShell;
using testing_support::Slurp;

struct Traced {
  long strace_calls = -1;
  nlohmann::json entry;
};

// Counts fsync/fdatasync lines; "resumed" halves of interrupted calls are the same call. The
// session's device warm-up syncs its own file (strace -y names it), not SQLite's.
long CountSyncCalls(const std::string& trace) {
  std::istringstream in(trace);
  std::string line;
  long n = 0;
  while (std::getline(in, line)) {
    if (line.find("resumed>") != std::string::npos) continue;
    if (line.find(sqlite_bench::kDeviceWarmupFile) != std::string::npos) continue;
    if (line.find(std::string("/") + run::kReferenceDir + "/") != std::string::npos) continue;
    if (line.find("fsync(") != std::string::npos || line.find("fdatasync(") != std::string::npos)
      ++n;
  }
  return n;
}

Traced RunTraced(const std::string& dir, const std::string& journal, const std::string& sync,
                 int commits) {
  std::string tag = journal + "-" + sync + "-" + std::to_string(commits);
  std::string trace = dir + "/trace-" + tag, json = dir + "/report-" + tag + ".json";
  std::string cmd = "strace -f -qq -y -e trace=fsync,fdatasync -o " + trace +
                    " " DURPROBE_BINARY " sqlite " + dir + " --journal-modes " + journal +
                    " --synchronous " + sync + " --commits " + std::to_string(commits) +
                    " --repetitions 1 --warmup 2 --no-probes --quiet --json " + json;
  testing_support::CliRun r = RunShell(cmd);
  EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.err;
  Traced t;
  if (r.exit_code != 0) return t;
  t.strace_calls = CountSyncCalls(Slurp(trace));
  t.entry = nlohmann::json::parse(Slurp(json))["targets"][0]["sqlite"][0];
  return t;
}

class StraceTest : public ::testing::TestWithParam<std::pair<const char*, const char*>> {
 protected:
  void SetUp() override {
    if (::access("/usr/bin/strace", X_OK) != 0 && RunShell("command -v strace").exit_code != 0) {
      GTEST_SKIP() << "strace is not installed (apt-get install strace)";
    }
    if (RunShell("strace -qq -e trace=none true").exit_code != 0) {
      GTEST_SKIP() << "strace cannot trace here (ptrace not permitted in this container?)";
    }
    dir_ = MakeTempDir("strace");
  }
  void TearDown() override {
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::string dir_;
};

TEST_P(StraceTest, SyncsCountedAtTheVfsEqualTheSyncSystemCalls) {
  auto [journal, sync] = GetParam();
  Traced short_run = RunTraced(dir_, journal, sync, 10);
  Traced long_run = RunTraced(dir_, journal, sync, 30);
  ASSERT_GE(short_run.strace_calls, 0);
  ASSERT_GE(long_run.strace_calls, 0);
  // Every sync of the whole run (setup, commits, read-back, close) seen by both.
  EXPECT_EQ(short_run.strace_calls, short_run.entry["vfs_totals"]["all"]["sync_calls"].get<long>());
  EXPECT_EQ(long_run.strace_calls, long_run.entry["vfs_totals"]["all"]["sync_calls"].get<long>());
  // Per commit: the 20 extra commits cost exactly what durprobe reports per commit.
  double per_commit_strace = double(long_run.strace_calls - short_run.strace_calls) / 20.0;
  EXPECT_DOUBLE_EQ(per_commit_strace, long_run.entry["syncs_per_commit"]["total"].get<double>())
      << journal << "/" << sync;
  EXPECT_DOUBLE_EQ(per_commit_strace, short_run.entry["syncs_per_commit"]["total"].get<double>());
}

INSTANTIATE_TEST_SUITE_P(
    Matrix, StraceTest,
    ::testing::Values(std::pair{"delete", "full"}, std::pair{"delete", "normal"},
                      std::pair{"delete", "extra"}, std::pair{"delete", "off"},
                      std::pair{"truncate", "full"}, std::pair{"persist", "normal"},
                      std::pair{"memory", "full"}, std::pair{"wal", "full"},
                      std::pair{"wal", "normal"}, std::pair{"wal", "extra"}),
    [](const auto& param_info) {
      return std::string(param_info.param.first) + "_" + param_info.param.second;
    });

}  // namespace
}  // namespace durprobe
