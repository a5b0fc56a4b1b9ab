// WAL's shared-memory pre-flight on a real filesystem whose shared mappings fail: a bindfs FUSE
// mount with -o direct_io (mmap(MAP_SHARED) answers ENODEV there). `durprobe sqlite` reports the
// first WAL configuration failed with the pre-flight's reason, skips the other WAL ones with
// sqlite_wal_shm_unusable, runs DELETE, writes its report and leaves no scratch.
#include <gtest/gtest.h>
#include <sys/mount.h>

#include <nlohmann/json.hpp>
#include <map>
#include <string>
#include <vector>

#include "tests/fault_runner.h"

namespace durprobe {
namespace {

using testing_support::CliRun;
using testing_support::RunDurprobe;
using testing_support::RunShell;
using testing_support::ScratchLeft;
using testing_support::TempDir;

TEST(WalShmTest, AFuseMountWithoutSharedMappingsFailsOneWalConfigurationAndSkipsTheRest) {
  if (!testing_support::IsRoot()) GTEST_SKIP() << "needs root to mount bindfs (FUSE)";
  if (RunShell("command -v bindfs").exit_code != 0) {
    GTEST_SKIP() << "bindfs is not installed (Debian: bindfs; scripts/lab-mounts.sh installs it)";
  }
  TempDir src, mnt, out;
  CliRun mounted = RunShell("bindfs -o direct_io " + src.path() + " " + mnt.path());
  if (mounted.exit_code != 0) GTEST_SKIP() << "bindfs -o direct_io failed: " << mounted.err;
  // A kernel and libfuse that allow shared mappings of direct_io files would make this moot.
  CliRun probe = RunShell("python3 -c \"import mmap,os; fd=os.open('" + mnt.path() +
                          "/m', os.O_RDWR|os.O_CREAT); os.pwrite(fd, b'x', 4095); "
                          "mmap.mmap(fd, 4096, mmap.MAP_SHARED)\"");
  RunShell("rm -f " + mnt.path() + "/m");
  if (probe.exit_code == 0) {
    ::umount2(mnt.path().c_str(), MNT_DETACH);
    GTEST_SKIP() << "this kernel maps direct_io FUSE files shared: no failing filesystem here";
  }
  std::string json = out.path() + "/report.json";
  CliRun run = RunDurprobe(
      "sqlite --budget 2s --no-probes --journal-modes delete,wal "
      "--synchronous full,normal -j " +
      json + " " + mnt.path());
  std::vector<std::string> left = ScratchLeft(mnt.path());
  ::umount2(mnt.path().c_str(), MNT_DETACH);
  EXPECT_EQ(run.exit_code, 1) << run.err;  // a configuration failed
  EXPECT_TRUE(left.empty()) << left.size() << " scratch entries left";
  nlohmann::json report = nlohmann::json::parse(testing_support::Slurp(json));
  const nlohmann::json& t = report["targets"][0];
  std::map<std::string, nlohmann::json> rows;
  for (const nlohmann::json& r : t["sqlite"]) {
    rows[r["journal_mode"].get<std::string>() + "/" + r["synchronous"].get<std::string>()] = r;
  }
  EXPECT_EQ(rows["DELETE/FULL"]["status"], "ok");
  EXPECT_EQ(rows["DELETE/NORMAL"]["status"], "ok");
  EXPECT_EQ(rows["WAL/FULL"]["status"], "error");
  std::string why = rows["WAL/FULL"]["reason"];
  EXPECT_NE(why.find("shared-memory index cannot be mapped"), std::string::npos) << why;
  EXPECT_NE(why.find("mmap for a shared mapping"), std::string::npos) << why;
  EXPECT_NE(why.find("No such device"), std::string::npos) << why;
  EXPECT_EQ(rows["WAL/NORMAL"]["status"], "unsupported");
  bool finding = false;
  for (const nlohmann::json& f : t["findings"])
    finding = finding || f["code"] == "sqlite_wal_shm_unusable";
  EXPECT_TRUE(finding) << t["findings"].dump(2);
}

}  // namespace
}  // namespace durprobe
