// Acceptance for the modern sync paths and the concurrent syncers (issue 26): each does what its
// name says where the kernel can show it.
//   rwf_dsync: strace sees one pwritev2(..., RWF_DSYNC) per operation and no sync call after it.
//   io_uring_fdatasync / io_uring_fsync: strace cannot see inside io_uring_enter, so the flush
//     counter of a loop device (/sys/block/loopN/stat) is read around a probe on a filesystem
//     holding nothing but the probe's file: it moves once per operation (fsync: at least once).
//   --writers: strace sees each writer's fdatasync calls come from N distinct threads or
//     processes, as many as the report counts plus at most the warm-up.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli_runner.h"

namespace durprobe {
namespace {

using testing_support::MakeTempDir;
using testing_support::RunShell;
using testing_support::Slurp;

bool StraceWorks(std::string* why) {
  if (RunShell("command -v strace").exit_code != 0) {
    *why = "strace is not installed (apt-get install strace)";
    return false;
  }
  if (RunShell("strace -qq -e trace=none true").exit_code != 0) {
    *why = "strace cannot trace here (ptrace not permitted in this container?)";
    return false;
  }
  return true;
}

nlohmann::json ReadJson(const std::string& file) {
  return nlohmann::json::parse(Slurp(file), nullptr, /*allow_exceptions=*/false);
}

TEST(ModernSyncTest, RwfDsyncIsOnePwritev2WithRwfDsyncPerOperationAndNoSync) {
  std::string why;
  if (!StraceWorks(&why)) GTEST_SKIP() << why;
  std::string dir = MakeTempDir("rwf-dsync");
  std::string cmd = "strace -f -qq -y -o " + dir + "/trace -e trace=pwritev2,fsync,fdatasync " +
                    DURPROBE_BINARY + " probe --quiet --primitives rwf_dsync --file-size 1MiB " +
                    "--budget 1s --json " + dir + "/r.json " + dir;
  ASSERT_EQ(RunShell(cmd).exit_code, 0);
  nlohmann::json probe = ReadJson(dir + "/r.json")["targets"][0]["probes"][0];
  if (probe["status"] == "unsupported") {
    GTEST_SKIP() << "RWF_DSYNC refused here: " << probe["reason"].get<std::string>();
  }
  ASSERT_EQ(probe["status"], "ok") << probe.dump();
  long ops = probe["ops"].get<long>() + probe["warmup_ops"].get<long>();
  std::istringstream trace(Slurp(dir + "/trace"));
  std::string line;
  long dsync_writes = 0, syncs = 0, fsyncs = 0;
  while (std::getline(trace, line)) {
    // The probe's own file; the reference probe's (drift samples) is reference/probe.dat.
    if (line.find("/probe.dat>") == std::string::npos) continue;
    if (line.find("/reference/probe.dat>") != std::string::npos) continue;
    if (line.find("pwritev2(") != std::string::npos &&
        line.find("RWF_DSYNC") != std::string::npos && line.find(") = 4096") != std::string::npos) {
      ++dsync_writes;
    }
    if (line.find("fdatasync(") != std::string::npos) ++syncs;
    if (line.find(" fsync(") != std::string::npos) ++fsyncs;
  }
  EXPECT_EQ(dsync_writes, ops);
  EXPECT_EQ(syncs, 0);
  EXPECT_EQ(fsyncs, 1);  // the preallocation's, before any timed write
  EXPECT_TRUE(platform::RemoveTree(platform::Default(), dir).ok()) << dir;
}

// writer pid -> fdatasync calls on its probe file, from `strace -f` lines "PID fdatasync(...)":
// a call another thread interrupts is split into "PID fdatasync(... <unfinished ...>" and a
// resumed half; the first half names the file, so each call is counted there once.
std::map<std::string, long> SyncsByWriter(const std::string& trace_text) {
  static const std::regex kLine(R"(^(\d+) +fdatasync\(\d+<[^>]*/(w\d+/probe|shared)\.dat>)");
  std::map<std::string, long> by_pid;
  std::istringstream in(trace_text);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, kLine)) ++by_pid[m[1]];
  }
  return by_pid;
}

TEST(ModernSyncTest, WritersSyncFromThatManyThreadsAndProcesses) {
  std::string why;
  if (!StraceWorks(&why)) GTEST_SKIP() << why;
  std::string dir = MakeTempDir("writers-strace");
  for (const char* mode : {"threads", "processes", "shared_file"}) {
    SCOPED_TRACE(mode);
    std::string trace = dir + "/trace-" + mode;
    std::string cmd = "strace -f -qq -y -o " + trace + " -e trace=fdatasync " + DURPROBE_BINARY +
                      " probe --quiet --primitives none --patterns overwrite --writers 4 " +
                      "--writers-modes " + mode + " --budget 6s --json " + dir + "/w.json " + dir;
    ASSERT_EQ(RunShell(cmd).exit_code, 0);
    nlohmann::json rows = ReadJson(dir + "/w.json")["targets"][0]["concurrency"];
    ASSERT_EQ(rows.size(), 2u);  // one writer (the scaling base) and four
    std::map<std::string, long> by_pid = SyncsByWriter(Slurp(trace));
    // One thread or process per writer of each row: 1 + 4, none of them the same.
    EXPECT_EQ(by_pid.size(), 5u);
    long syncs = 0;
    for (const auto& [pid, n] : by_pid) syncs += n;
    long ops = rows[0]["ops"].get<long>() + rows[1]["ops"].get<long>();
    // Every timed operation syncs once; warm-up adds at most 5 per writer.
    EXPECT_GE(syncs, ops);
    EXPECT_LE(syncs, ops + 5 * 5);
    EXPECT_EQ(rows[1]["writers"], 4);
    EXPECT_EQ(rows[1]["mode"], mode);
  }
  EXPECT_TRUE(platform::RemoveTree(platform::Default(), dir).ok()) << dir;
}

// A loop-backed ext4 holding nothing but what the test puts there.
class LoopFlushTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing_support::IsRoot()) GTEST_SKIP() << "not root: losetup and mount need it";
    for (const char* tool : {"losetup", "mkfs.ext4", "mount"}) {
      if (RunShell(std::string("command -v ") + tool).exit_code != 0) {
        GTEST_SKIP() << tool << " is not installed";
      }
    }
    dir_ = MakeTempDir("loop-flush");
    testing_support::CliRun loop =
        RunShell("truncate -s 64M " + dir_ + "/img && losetup -f " + "--show " + dir_ + "/img");
    if (loop.exit_code != 0) GTEST_SKIP() << "no loop device: " << loop.err;
    device_ = loop.out.substr(0, loop.out.find('\n'));
    name_ = device_.substr(device_.rfind('/') + 1);
    mnt_ = dir_ + "/mnt";
    ASSERT_EQ(RunShell("mkfs.ext4 -q -F " + device_ + " && mkdir -p " + mnt_ + " && mount " +
                       device_ + " " + mnt_)
                  .exit_code,
              0);
    mounted_ = true;
    std::string cache = Slurp("/sys/block/" + name_ + "/queue/write_cache");
    if (cache.find("write back") == std::string::npos) {
      GTEST_SKIP() << name_ << " does not flush (write_cache: " << cache << ")";
    }
  }
  void TearDown() override {
    if (mounted_) RunShell("umount " + mnt_);
    if (!device_.empty()) RunShell("losetup -d " + device_);
    if (!dir_.empty()) {
      EXPECT_TRUE(platform::RemoveTree(platform::Default(), dir_).ok()) << dir_;
    }
  }
  long Flushes() const {  // /sys/block/X/stat field 16: flush requests completed
    std::istringstream in(Slurp("/sys/block/" + name_ + "/stat"));
    std::vector<long> f;
    for (long v; in >> v;) f.push_back(v);
    return f.size() >= 16 ? f[15] : -1;
  }
  // Flushes counted around one probe of primitive, and its operations (warm-up included).
  bool Probe(const std::string& primitive, long* flushes, long* ops, std::string* skip) {
    RunShell("sync");
    long before = Flushes();
    testing_support::CliRun r = testing_support::RunDurprobe(
        "probe --quiet --primitives " + primitive + " --file-size 1MiB --budget 1s --json " + dir_ +
        "/" + primitive + ".json " + mnt_);
    long after = Flushes();
    EXPECT_EQ(r.exit_code, 0) << r.err;
    nlohmann::json probe = ReadJson(dir_ + "/" + primitive + ".json")["targets"][0]["probes"][0];
    if (probe["status"] == "unsupported") {
      *skip = primitive + " refused: " + probe["reason"].get<std::string>();
      return false;
    }
    EXPECT_EQ(probe["status"], "ok") << probe.dump();
    *ops = probe["ops"].get<long>() + probe["warmup_ops"].get<long>();
    // The reference probe's samples around the probe (drift) flush the same device, once each.
    nlohmann::json report = ReadJson(dir_ + "/" + primitive + ".json");
    if (report["targets"][0].contains("reference")) {
      for (const nlohmann::json& sample : report["targets"][0]["reference"]["samples"]) {
        *ops += sample["ops"].get<long>();
      }
    }
    *flushes = after - before;
    return before >= 0;
  }

  std::string dir_, device_, name_, mnt_;
  bool mounted_ = false;
};

TEST_F(LoopFlushTest, IoUringFdatasyncFlushesTheDeviceOncePerOperation) {
  long flushes = 0, ops = 0;
  std::string skip;
  if (!Probe("io_uring_fdatasync", &flushes, &ops, &skip)) GTEST_SKIP() << skip;
  ASSERT_GT(ops, 10);
  // Once per operation; setup's fsync, the scratch directory's and a periodic journal commit
  // add a few.
  EXPECT_GE(flushes, ops);
  EXPECT_LE(flushes, ops + 12 + ops / 20) << ops << " operations";
}

TEST_F(LoopFlushTest, IoUringFsyncFlushesTheDeviceAtLeastOncePerOperation) {
  long flushes = 0, ops = 0;
  std::string skip;
  if (!Probe("io_uring_fsync", &flushes, &ops, &skip)) GTEST_SKIP() << skip;
  ASSERT_GT(ops, 10);
  // fsync also commits the inode's mtime through the journal: one flush or more per operation.
  EXPECT_GE(flushes, ops);
}

}  // namespace
}  // namespace durprobe
