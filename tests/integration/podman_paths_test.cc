// durprobe inside a real Podman container (the image deploy/image/build.sh builds): what it says
// about the overlay root of a --rm and of a kept container, a -v bind mount, a named volume, a
// --tmpfs and a read-only bind, held against what the host knows about the same directories, and
// compare's verdicts across them inside the container. Skips, with the reason, where Podman
// cannot run (tests/integration/podman_support.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/integration/podman_support.h"

namespace durprobe {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::ParseJsonOrFail;
using testing_support::PodmanCommand;
using testing_support::PodmanRun;
using testing_support::PodmanVolume;
using testing_support::RunDurprobe;
using testing_support::RunShell;
using testing_support::TempDir;
using testing_support::TestImage;

class PodmanPathsTest : public ::testing::Test {
 protected:
  void SetUp() override { DURPROBE_NEED_IMAGE(); }
  const std::string& image() const { return TestImage().tag; }
};

// The target of a durprobe report whose path is path.
const json& TargetAt(const json& report, const std::string& path) {
  for (const json& t : report["targets"]) {
    if (t["path"] == path) return t;
  }
  static const json none;
  ADD_FAILURE() << "no target " << path << " in " << report.dump();
  return none;
}

bool HasFindingCode(const json& target, const std::string& code) {
  for (const json& f : target["findings"]) {
    if (f["code"] == code) return true;
  }
  return false;
}

bool HasOption(const json& mount, const std::string& option) {
  for (const json& o : mount["options"]) {
    if (o == option) return true;
  }
  return false;
}

// What the host sees at host_dir (the truth a container's view is held to): its report target.
json HostTarget(const std::string& host_dir) {
  CliRun run = RunDurprobe("inspect --json - " + host_dir);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return ParseJsonOrFail(run)["targets"][0];
}

// The durability verdict of a report target, with its deciding layer and the findings behind it.
void ExpectDurability(const json& target, const std::string& verdict, const std::string& layer,
                      const std::string& finding, const std::string& what) {
  const json& d = target["durability"];
  ASSERT_TRUE(d.is_object()) << what << ": " << target.dump();
  EXPECT_EQ(d["verdict"], verdict) << what << ": " << d.dump();
  EXPECT_EQ(d["deciding_layer"], layer) << what << ": " << d.dump();
  if (!finding.empty()) {
    EXPECT_NE(std::find(d["findings"].begin(), d["findings"].end(), finding), d["findings"].end())
        << what << ": " << d.dump();
  }
}

// The container sees the host's filesystem through a bind: same type, device numbers and block
// device (found through /sys/class/block: Podman masks /sys/dev/block), and the same durability
// verdict as the host gives the directory.
void ExpectSameAsHost(const json& inside, const json& host, const std::string& what) {
  const json& m = inside["mount"];
  EXPECT_EQ(m["fstype"], host["mount"]["fstype"]) << what;
  EXPECT_EQ(m["dev"], host["mount"]["dev"]) << what;
  EXPECT_EQ(m["bind"], true) << what;
  ASSERT_FALSE(m["device"].is_null()) << what << ": " << m["device_note"];
  EXPECT_EQ(m["device"]["name"], host["mount"]["device"]["name"]) << what;
  EXPECT_NE(m["device_note"].get<std::string>().find("/sys/class/block"), std::string::npos)
      << what << ": " << m["device_note"];
  ASSERT_TRUE(inside["durability"].is_object()) << what;
  EXPECT_EQ(inside["durability"]["verdict"], host["durability"]["verdict"]) << what;
  EXPECT_EQ(inside["durability"]["deciding_layer"], host["durability"]["deciding_layer"]) << what;
}

void ExpectPodmanRole(const json& mount, const std::string& role, const std::string& what) {
  EXPECT_EQ(mount["container"]["in_container"], true) << what;
  EXPECT_EQ(mount["container"]["runtime"], "podman") << what;
  EXPECT_EQ(mount["container"]["path_role"], role) << what << ": " << mount["container"].dump();
}

// The verdict compare gives path, from a durprobe.compare/1 document.
const json& VerdictFor(const json& comparison, const std::string& path) {
  for (const json& v : comparison["verdicts"]) {
    if (v["path"] == path) return v;
  }
  static const json none;
  ADD_FAILURE() << "no verdict for " << path << " in " << comparison["verdicts"].dump();
  return none;
}

// A --rm container: its overlay root (Podman mounts it fsync=volatile), a -v bind mount, a named
// volume, a --tmpfs and a read-only bind, each identified as what it is.
TEST_F(PodmanPathsTest, RmContainerIdentifiesEachKindOfPath) {
  TempDir bind, ro;
  PodmanVolume volume("paths");
  ASSERT_TRUE(volume.created());
  CliRun run = PodmanRun("--rm -v " + bind.path() + ":/bind -v " + volume.name() +
                         ":/vol --tmpfs /scratch -v " + ro.path() +
                         ":/ro:ro --entrypoint /bin/sh " + image() +
                         " -c 'mkdir -p /root/db && durprobe inspect --json - /root/db /bind /vol "
                         "/scratch /ro'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  json report = ParseJsonOrFail(run);

  const json& root = TargetAt(report, "/root/db")["mount"];
  ExpectPodmanRole(root, "overlay_root", "--rm root");
  EXPECT_EQ(root["fstype"], "overlay");
  EXPECT_TRUE(HasOption(root, "fsync=volatile")) << root["options"].dump();
  EXPECT_EQ(root["overlay"]["volatile"], true);
  ExpectDurability(TargetAt(report, "/root/db"), "not_durable", "overlay", "overlay_volatile",
                   "--rm root");
  // The upper layer lives on the host under Podman's storage, outside this mount namespace (and
  // removed with the container); the host knows that storage's disk.
  EXPECT_EQ(root["overlay"]["upper_visible"], false);
  CliRun graph = RunShell(PodmanCommand() + " info --format '{{.Store.GraphRoot}}'");
  ASSERT_EQ(graph.exit_code, 0) << graph.err;
  std::string graph_root = testing_support::LastLine(graph.out);
  EXPECT_EQ(root["overlay"]["upper_dir"].get<std::string>().rfind(graph_root, 0), 0u);
  json upper = HostTarget(graph_root)["mount"];
  if (root["device"].is_null()) {
    EXPECT_FALSE(root["device_note"].get<std::string>().empty());
  } else {
    EXPECT_EQ(root["device"]["name"], upper["device"]["name"]);
  }

  const json& b = TargetAt(report, "/bind");
  ExpectPodmanRole(b["mount"], "bind_from_host", "-v bind");
  ExpectSameAsHost(b, HostTarget(bind.path()), "-v bind");

  CliRun where =
      RunShell(PodmanCommand() + " volume inspect --format '{{.Mountpoint}}' " + volume.name());
  ASSERT_EQ(where.exit_code, 0) << where.err;
  const json& v = TargetAt(report, "/vol");
  ExpectPodmanRole(v["mount"], "volume", "named volume");
  ExpectSameAsHost(v, HostTarget(testing_support::LastLine(where.out)), "named volume");

  const json& scratch = TargetAt(report, "/scratch");
  ExpectPodmanRole(scratch["mount"], "tmpfs", "--tmpfs");
  EXPECT_EQ(scratch["mount"]["fstype"], "tmpfs");
  EXPECT_TRUE(HasFindingCode(scratch, "sync_noop_memory_fs")) << scratch["findings"].dump();
  ExpectDurability(scratch, "not_durable", "filesystem", "sync_noop_memory_fs", "--tmpfs");

  const json& r = TargetAt(report, "/ro");
  ExpectPodmanRole(r["mount"], "bind_from_host", "read-only bind");
  EXPECT_TRUE(HasOption(r["mount"], "ro")) << r["mount"]["options"].dump();
  EXPECT_TRUE(HasFindingCode(r, "read_only_mount")) << r["findings"].dump();
  ExpectSameAsHost(r, HostTarget(ro.path()), "read-only bind");
}

// Measuring on the read-only bind cannot start: exit 2 with one line naming the path and why.
TEST_F(PodmanPathsTest, ReadOnlyBindCannotBeMeasuredAndSaysWhy) {
  TempDir ro;
  CliRun run = PodmanRun("--rm -v " + ro.path() + ":/ro:ro " + image() + " probe --quick /ro");
  EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
  EXPECT_EQ(testing_support::CountLines(run.err), 1) << run.err;
  EXPECT_NE(run.err.find("/ro"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("/ro is on a read-only filesystem"), std::string::npos) << run.err;
  EXPECT_EQ(RunShell("ls -A " + ro.path()).out, "");
}

// compare inside a --rm container, the named volume first: the bind mount reaches the same disk
// (a measured penalty or none, never "keeps nothing"); the volatile overlay root and the tmpfs
// keep nothing, which compare must say instead of calling them faster.
TEST_F(PodmanPathsTest, CompareInsideRmContainerCallsTheVolatileRootAndTmpfsNotDurable) {
  TempDir bind;
  PodmanVolume volume("compare");
  ASSERT_TRUE(volume.created());
  CliRun run = PodmanRun("--rm -v " + bind.path() + ":/bind -v " + volume.name() +
                         ":/vol --tmpfs /scratch --entrypoint /bin/sh " + image() +
                         " -c 'mkdir -p /root/db && durprobe compare --quick --quiet --json - "
                         "/vol /bind /root/db /scratch'");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  json c = ParseJsonOrFail(run);
  EXPECT_EQ(c["schema"], "durprobe.compare/1");
  ASSERT_EQ(c["verdicts"].size(), 3u) << c["verdicts"].dump();
  EXPECT_NE(VerdictFor(c, "/bind")["dominant"], "not_durable") << VerdictFor(c, "/bind").dump();
  EXPECT_EQ(VerdictFor(c, "/root/db")["dominant"], "not_durable");
  const json& volatile_codes = VerdictFor(c, "/root/db")["not_durable"];
  EXPECT_NE(std::find(volatile_codes.begin(), volatile_codes.end(), "overlay_volatile"),
            volatile_codes.end())
      << volatile_codes.dump();
  EXPECT_EQ(VerdictFor(c, "/scratch")["dominant"], "not_durable");
  EXPECT_NE(VerdictFor(c, "/scratch")["message"].get<std::string>().find("keeps nothing"),
            std::string::npos);
  ExpectPodmanRole(TargetAt(c, "/vol")["mount"], "volume", "compare's volume");
}

// A kept container (no --rm): Podman mounts its overlay root without fsync=volatile, so its
// syncs reach the host's disk through the upper layer and compare finds no "keeps nothing".
TEST_F(PodmanPathsTest, KeptContainerRootIsNotVolatile) {
  PodmanVolume volume("kept");
  ASSERT_TRUE(volume.created());
  std::string name = "durprobe-test-kept-" + std::to_string(::getpid());
  RunShell(PodmanCommand() + " rm -f " + name);
  CliRun run = PodmanRun("--name " + name + " -v " + volume.name() + ":/vol --entrypoint /bin/sh " +
                         image() +
                         " -c 'mkdir -p /root/db && durprobe compare --quick --quiet --json - "
                         "/vol /root/db'");
  CliRun removed = RunShell(PodmanCommand() + " rm -f " + name);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(removed.exit_code, 0) << removed.err;
  json c = ParseJsonOrFail(run);
  const json& root = TargetAt(c, "/root/db")["mount"];
  ExpectPodmanRole(root, "overlay_root", "kept root");
  EXPECT_FALSE(HasOption(root, "fsync=volatile")) << root["options"].dump();
  EXPECT_FALSE(HasOption(root, "volatile")) << root["options"].dump();
  EXPECT_NE(VerdictFor(c, "/root/db")["dominant"], "not_durable")
      << VerdictFor(c, "/root/db").dump();
  // Its upper layer, where the writes land, is on the host, out of this mount namespace: the
  // overlay cannot be proven durable from inside, and nothing voids it.
  ExpectDurability(TargetAt(c, "/root/db"), "unproven", "overlay", "", "kept root");
  EXPECT_FALSE(TargetAt(c, "/root/db")["durability"]["to_prove"].get<std::string>().empty());
}

}  // namespace
}  // namespace durprobe
