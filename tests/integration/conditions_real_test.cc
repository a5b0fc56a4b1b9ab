// Issue 55: the conditions a host's commits are slowed by, made for real on this machine, and
// diff ranking each first on the side that had it: a cgroup v1 blkio write-IOPS limit on the
// test directory's disk (inspect shows it too), a cgroup v1 CPU quota of a fifth of a core, and
// fio writing with fsync=1 on the same disk. Two `probe --quick` reports each, a free and b
// under the condition. Each skips with its reason when not root or the controller is missing.
// What ranks first follows from the records (the limit, the quota's throttled probes, the
// neighbour's flushes in the idle slices), never from a timing threshold of this test's own.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_runner.h"

namespace durprobe {
namespace conditions_real_test {

using testing_support::CliRun;
using testing_support::RunShell;
using testing_support::Slurp;
using testing_support::TempDir;

bool Exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// A cgroup of this test's own under a v1 controller's mount, removed at the end (its processes
// have ended by then: each ran to completion inside RunShell).
class OwnCgroup {
 public:
  OwnCgroup(const std::string& controller, const std::string& tag)
      : dir_("/sys/fs/cgroup/" + controller + "/durprobe-causes-" + tag + "-" +
             std::to_string(::getpid())) {
    made_ = std::filesystem::create_directory(dir_);
  }
  ~OwnCgroup() {
    if (made_) (void)::rmdir(dir_.c_str());
  }
  bool made() const { return made_; }
  const std::string& dir() const { return dir_; }
  void Write(const std::string& file, const std::string& text) const {
    ASSERT_EQ(RunShell("echo '" + text + "' > " + dir_ + "/" + file).exit_code, 0) << file;
  }
  // A shell command run inside the cgroup.
  std::string Inside(const std::string& command) const {
    return "sh -c 'echo $$ > " + dir_ + "/cgroup.procs && exec " + command + "'";
  }

 private:
  std::string dir_;
  bool made_ = false;
};

class ConditionsRealTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!testing_support::IsRoot()) GTEST_SKIP() << "needs root to make cgroups";
    // On the disk: /var/tmp, not a tmpfs /tmp.
    std::string inspect =
        RunShell(std::string(DURPROBE_BINARY) + " inspect --json - " + dir_.path()).out;
    nlohmann::json j = nlohmann::json::parse(inspect, nullptr, false);
    if (j.is_discarded() || !j["targets"][0]["mount"]["device"].is_object()) {
      GTEST_SKIP() << dir_.path() << " has no block device under it";
    }
    disk_ = j["targets"][0]["mount"]["device"]["disk"].get<std::string>();
    std::string dev = Slurp("/sys/class/block/" + disk_ + "/dev");
    while (!dev.empty() && dev.back() == '\n') dev.pop_back();
    dev_ = dev;
  }
  // A `probe --quick` report of the directory, through prefix (a cgroup, or nothing).
  std::string Probe(const std::string& name, const std::string& wrap = "") {
    std::string out = reports_.path() + "/" + name + ".json";
    std::string command =
        std::string(DURPROBE_BINARY) + " probe --quick --json " + out + " " + dir_.path();
    CliRun r = RunShell(wrap.empty() ? command : wrap);
    EXPECT_TRUE(Exists(out)) << r.err;
    return out;
  }
  std::string Diff(const std::string& a, const std::string& b) {
    CliRun r = RunShell(std::string(DURPROBE_BINARY) + " diff " + a + " " + b);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  }
  // The first ranked cause's line ("  1. io_limit 1.00  b ran under ...").
  static std::string FirstCause(const std::string& diff) {
    std::size_t at = diff.find("\n  1. ");
    return at == std::string::npos ? "" : diff.substr(at + 1, diff.find('\n', at + 1) - at - 1);
  }
  TempDir dir_{"/var/tmp"};
  TempDir reports_;
  std::string disk_, dev_;
};

TEST_F(ConditionsRealTest, AWriteIopsLimitIsShownAndRankedFirstOnItsSide) {
  if (!Exists("/sys/fs/cgroup/blkio/blkio.throttle.write_iops_device")) {
    GTEST_SKIP() << "no cgroup v1 blkio controller at /sys/fs/cgroup/blkio";
  }
  std::string a = Probe("a");
  OwnCgroup cg("blkio", "io");
  ASSERT_TRUE(cg.made()) << cg.dir();
  cg.Write("blkio.throttle.write_iops_device", dev_ + " 100");
  CliRun inspect = RunShell(cg.Inside(std::string(DURPROBE_BINARY) + " inspect " + dir_.path()));
  EXPECT_NE(inspect.out.find("I/O limit   write 100 IOPS on " + disk_ + " (cgroup v1 " + cg.dir()),
            std::string::npos)
      << inspect.out;
  std::string b = Probe("b", cg.Inside(std::string(DURPROBE_BINARY) + " probe --quick --json " +
                                       reports_.path() + "/b.json " + dir_.path()));
  std::string diff = Diff(a, b);
  EXPECT_NE(FirstCause(diff).find("1. io_limit "), std::string::npos) << diff;
  EXPECT_NE(
      FirstCause(diff).find(" b ran under a cgroup I/O limit on " + disk_ + " (write 100 IOPS"),
      std::string::npos)
      << diff;
}

TEST_F(ConditionsRealTest, ACpuQuotaIsRankedFirstOnItsSide) {
  if (!Exists("/sys/fs/cgroup/cpu/cpu.cfs_quota_us")) {
    GTEST_SKIP() << "no cgroup v1 cpu controller at /sys/fs/cgroup/cpu";
  }
  std::string a = Probe("a");
  OwnCgroup cg("cpu", "cpu");
  ASSERT_TRUE(cg.made()) << cg.dir();
  cg.Write("cpu.cfs_period_us", "100000");
  cg.Write("cpu.cfs_quota_us", "20000");
  std::string b = Probe("b", cg.Inside(std::string(DURPROBE_BINARY) + " probe --quick --json " +
                                       reports_.path() + "/b.json " + dir_.path()));
  std::string diff = Diff(a, b);
  EXPECT_NE(FirstCause(diff).find("1. cpu_quota "), std::string::npos) << diff;
  EXPECT_NE(FirstCause(diff).find(" b ran under a CPU quota of 0.20 CPUs (a: none)"),
            std::string::npos)
      << diff;
}

TEST_F(ConditionsRealTest, AFioNeighbourWithFsyncIsRankedFirstOnItsSide) {
  if (RunShell("command -v fio").exit_code != 0) GTEST_SKIP() << "fio is not installed";
  std::string a = Probe("a");
  // fio in the background for at most two minutes, killed once b is measured.
  const std::string pid_file = reports_.path() + "/fio.pid";
  ASSERT_EQ(RunShell("fio --name=durprobe-causes-neighbour --directory=" + dir_.path() +
                     " --size=16m --rw=randwrite --bs=4k --fsync=1 --numjobs=4 --time_based "
                     "--runtime=120 --output=/dev/null >/dev/null 2>&1 & echo $! > " +
                     pid_file + "; sleep 2")
                .exit_code,
            0);
  std::string b = Probe("b");
  RunShell("kill $(cat " + pid_file + "); sleep 1; rm -f " + dir_.path() +
           "/durprobe-causes-neighbour.*");
  std::string diff = Diff(a, b);
  EXPECT_NE(FirstCause(diff).find("1. neighbour "), std::string::npos) << diff;
  EXPECT_NE(FirstCause(diff).find(" b shared its device: another process flushed " + disk_),
            std::string::npos)
      << diff;
}

}  // namespace conditions_real_test
}  // namespace durprobe
