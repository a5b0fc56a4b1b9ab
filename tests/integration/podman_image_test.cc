// deploy/image/build.sh for real: the image builds from Debian packages without a registry, runs
// `check /data --preset etcd --quick` on a mounted volume, saves to an archive for an air-gapped
// cluster, and the Kubernetes manifests name what it builds. The Debian root is cached across
// runs (~/.cache/durprobe-image), so only a machine's first run spends minutes on it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/integration/podman_support.h"

namespace durprobe {
namespace {

using nlohmann::json;
using testing_support::CliRun;
using testing_support::ParseJsonOrFail;
using testing_support::PodmanRun;
using testing_support::PodmanVolume;
using testing_support::RunShell;
using testing_support::Slurp;
using testing_support::TempDir;
using testing_support::TestImage;

const std::string kBuild = std::string(DURPROBE_SOURCE_DIR) + "/deploy/image/build.sh";

TEST(PodmanImageTest, ChecksAMountedVolumeWithTheEtcdPreset) {
  DURPROBE_NEED_IMAGE();
  PodmanVolume volume("image");
  ASSERT_TRUE(volume.created());
  CliRun run = PodmanRun("--rm -v " + volume.name() + ":/data " + TestImage().tag +
                         " check /data --preset etcd --quick --quiet --json -");
  // 0 or 1: whether this disk meets etcd's limits is the disk's business. 2 only with a rule
  // `unstable`: this disk changes level within seconds, and a limit inside the range the drift
  // allows is neither a pass nor a fail. Any other 2 is a failure to measure.
  ASSERT_TRUE(run.exit_code >= 0 && run.exit_code <= 2) << run.exit_code << run.err;
  json report = ParseJsonOrFail(run);
  if (run.exit_code == 2) {
    bool unstable = false;
    for (const json& c : report["checks"]) unstable = unstable || c["status"] == "unstable";
    EXPECT_TRUE(unstable) << run.err;
  }
  EXPECT_EQ(report["schema"], "durprobe.report/1");
  const json& mount = report["targets"][0]["mount"];
  EXPECT_EQ(mount["container"]["runtime"], "podman");
  EXPECT_EQ(mount["container"]["path_role"], "volume");
  // A volume is the host's disk-backed filesystem: nothing in the way voids its syncs.
  const json& durability = report["targets"][0]["durability"];
  ASSERT_TRUE(durability.is_object()) << report["targets"][0].dump();
  EXPECT_NE(durability["verdict"], "not_durable") << durability.dump();
  std::set<std::string> rules;
  for (const json& c : report["checks"]) {
    rules.insert(c["rule"].get<std::string>());
    EXPECT_NE(c["status"], "error") << c.dump();
    EXPECT_EQ(c["path"], "/data");
  }
  EXPECT_EQ(rules.count("etcd_wal_fsync_p99"), 1u) << report["checks"].dump();
  EXPECT_EQ(rules.count("etcd_backend_commit_p99"), 1u);
  // The preset's WAL probe and the backend's synced writes beside it ran.
  bool wal = false, companion = false;
  for (const json& p : report["targets"][0]["probes"]) {
    wal = wal || (p["primitive"] == "fdatasync" && p["pattern"] == "preallocated" &&
                  p["write_size"] == 1392);
  }
  for (const json& f : report["targets"][0]["findings"]) {
    companion = companion || (f["code"] == "background_load" &&
                              f["message"].get<std::string>().find("synced writes/s of 36 KiB") !=
                                  std::string::npos);
  }
  EXPECT_TRUE(wal) << report["targets"][0]["probes"].dump();
  EXPECT_TRUE(companion) << report["targets"][0]["findings"].dump();
}

// `--save` writes a docker-archive that podman, docker and containerd's ctr load: a manifest
// naming the tag, and the layer.
TEST(PodmanImageTest, SavesAnArchiveForAnAirGappedCluster) {
  DURPROBE_NEED_IMAGE();
  TempDir out;
  std::string archive = out.path() + "/durprobe.tar";
  CliRun saved = RunShell(kBuild + " --durprobe " + DURPROBE_BINARY +
                          " --name localhost/durprobe-test --save " + archive);
  ASSERT_EQ(saved.exit_code, 0) << saved.err;
  EXPECT_EQ(testing_support::LastLine(saved.out), TestImage().tag);
  CliRun manifest = RunShell("tar -xOf " + archive + " manifest.json");
  ASSERT_EQ(manifest.exit_code, 0) << manifest.err;
  json m = ParseJsonOrFail(manifest);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0]["RepoTags"][0], TestImage().tag);
  EXPECT_EQ(m[0]["Layers"].size(), 1u);
}

// The manifests run the image build.sh makes by default (its name and the binary's version),
// present on the node (imagePullPolicy: Never: there is no registry to pull from).
TEST(PodmanImageTest, KubernetesManifestsUseTheBuiltImage) {
  CliRun tag = RunShell(kBuild + " --durprobe " + DURPROBE_BINARY + " --print-tag");
  ASSERT_EQ(tag.exit_code, 0) << tag.err;
  std::string image = testing_support::LastLine(tag.out);
  EXPECT_EQ(image.rfind("localhost/durprobe:", 0), 0u) << image;
  for (const char* file : {"durprobe-check-job.yaml", "durprobe-check-daemonset.yaml"}) {
    std::string yaml = Slurp(std::string(DURPROBE_SOURCE_DIR) + "/deploy/kubernetes/" + file);
    EXPECT_NE(yaml.find("image: " + image + "\n"), std::string::npos) << file;
    EXPECT_NE(yaml.find("imagePullPolicy: Never"), std::string::npos) << file;
    EXPECT_EQ(yaml.find("registry.example.com"), std::string::npos) << file;
  }
}

}  // namespace
}  // namespace durprobe
