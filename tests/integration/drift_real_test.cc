// Drift on a real disk: `durprobe sqlite` runs on a directory of the disk under /tmp while a
// competing process starts heavy write-and-fsync traffic on the same filesystem a few seconds in.
// When that moved the reference probe beyond its noise (it does on a disk that shares its flushes,
// as this machine's virtual disk does), the report must say latency_drift and must not blame
// SQLite with sqlite_prediction_residual. A device the competitor did not move is a visible skip,
// never a pass: the assertion is about the explanation, not about how slow the disk got.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/drift.h"
#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::TempDir;

// A child that waits delay_s, then writes 16 MiB and fsyncs it, over and over, in dir.
pid_t StartCompetitor(const std::string& dir, unsigned delay_s) {
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::sleep(delay_s);
  std::string file = dir + "/competitor";
  std::vector<char> block(1 << 20, 'x');
  for (;;) {
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) ::_exit(1);
    for (int i = 0; i < 16; ++i) {
      if (::write(fd, block.data(), block.size()) < 0) ::_exit(1);
    }
    ::fsync(fd);
    ::close(fd);
  }
}

void StopCompetitor(pid_t pid) {
  if (pid <= 0) return;
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
}

bool HasFinding(const json& target, const std::string& code) {
  for (const json& f : target.value("findings", json::array())) {
    if (f.value("code", "") == code) return true;
  }
  return false;
}

TEST(DriftRealTest, ACompetingFsyncWriterIsLatencyDriftNotSqlitesFault) {
  TempDir run_dir, competitor_dir;
  ASSERT_FALSE(run_dir.path().empty());
  pid_t competitor = StartCompetitor(competitor_dir.path(), 4);
  ASSERT_GT(competitor, 0);
  CliRun run = testing_support::RunDurprobe(
      "sqlite " + run_dir.path() +
      " --journal-modes delete,wal --synchronous full --budget 10s --json - --quiet");
  StopCompetitor(competitor);
  ASSERT_TRUE(run.exit_code == 0 || run.exit_code == 1) << run.err;
  json report = json::parse(run.out);
  const json& target = report["targets"][0];
  const json& samples = target["reference"]["samples"];
  ASSERT_GE(samples.size(), 3u) << "a reference sample before each configuration and at the end";

  std::vector<analysis::TimedValue> reference;
  for (const json& s : samples) {
    reference.push_back({std::uint64_t(s.value("t_s", 0.0) * 1e9), s.value("p50_ns", 0.0)});
  }
  // The rule the report itself applies to the reference samples (analysis/drift.h).
  bool moved = !analysis::FindSteps(reference).empty();
  bool drift = HasFinding(target, "latency_drift");
  if (!moved && !drift) {
    GTEST_SKIP() << "the competing writer did not move this disk's flush latency beyond noise "
                 << "(reference p50 " << reference.front().value << " ns at the start, "
                 << reference.back().value << " ns at the end)";
  }
  EXPECT_TRUE(drift) << "the reference probe moved but no latency_drift finding: "
                     << target["findings"].dump(1);
  EXPECT_FALSE(HasFinding(target, "sqlite_prediction_residual"))
      << "drift blamed on SQLite: " << target["findings"].dump(1);
}

}  // namespace
}  // namespace durprobe
