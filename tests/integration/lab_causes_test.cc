// Cause ranking on real pairs of lab mounts (scripts/lab-mounts.sh): compare each pair and read
// the leading cause from its JSON; it must be the one a storage engineer names for that pair,
// with evidence and advice, and the names of loop devices, mount points and sources must not be
// in the differences. Needs root; a mount the kernel cannot make skips its case with the reason.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "platform/platform.h"
#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe {
namespace {

using nlohmann::json;
using testing_support::CliRun;

CliRun LabScript(const std::string& action, const std::string& dir) {
  return testing_support::RunShell(std::string("bash ") + DURPROBE_SOURCE_DIR +
                                   "/scripts/lab-mounts.sh " + action + " " + dir);
}

class LabCausesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!testing_support::IsRoot()) {
      skip_ = "not root: the lab needs mount and losetup";
      return;
    }
    char tmpl[] = "/tmp/durprobe-causes-XXXXXX";
    if (::mkdtemp(tmpl) == nullptr) {
      skip_ = "cannot create a temporary directory";
      return;
    }
    dir_ = tmpl;
    CliRun r = LabScript("up", dir_);
    log_ = r.err;
    if (r.exit_code == 2) skip_ = "lab-mounts.sh refused: " + r.err;
  }

  static void TearDownTestSuite() {
    if (dir_.empty()) return;
    (void)platform::Default().RemoveDirectory(dir_ + "/plain");
    CliRun r = LabScript("down", dir_);
    EXPECT_EQ(r.exit_code, 0) << "lab-mounts.sh down: " << r.err;
    (void)platform::Default().RemoveDirectory(dir_);
    dir_.clear();
  }

  // Whether the lab made name ("not set up: ..." on stderr lists what it could not).
  static bool Made(const std::string& name) {
    std::size_t at = log_.find("not set up:");
    if (at == std::string::npos) return true;
    std::istringstream words(log_.substr(at + 11, log_.find('\n', at) - at - 11));
    std::string word;
    while (words >> word) {
      if (word == name) return false;
    }
    return true;
  }

  // compare --quick --no-sqlite a b [extra] as JSON.
  static json Compare(const std::string& a, const std::string& b, const std::string& extra = "") {
    CliRun r = testing_support::RunDurprobe("compare --quick --no-sqlite -q --json - " + extra +
                                            " " + a + " " + b);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return json::parse(r.out, nullptr, false);
  }

  // The leading cause's key (evidence and advice checked), noise keys checked absent.
  static std::string Leading(const json& j) {
    if (!j.is_object() || j["verdicts"].empty()) return "(no verdict)";
    const json& v = j["verdicts"][0];
    for (const json& d : v["differences"]) {
      std::string key = d["key"];
      for (const char* noise : {"mount_point", "source", "device.name", "device.dev",
                                "backing_file", "path_role_reason"}) {
        EXPECT_EQ(key.find(noise), std::string::npos) << "noise key listed: " << key;
      }
    }
    if (v["causes"].empty()) return "(no cause)";
    const json& c = v["causes"][0];
    EXPECT_FALSE(c["evidence"].get<std::string>().empty());
    EXPECT_FALSE(c["advice"].get<std::string>().empty());
    return c["key"];
  }

  // Whether the causes in j (a compare's verdict or a diff) list key.
  static bool Lists(const json& causes, const std::string& key) {
    for (const json& c : causes) {
      if (c["key"] == key) return true;
    }
    return false;
  }

  // Causes of the moment rather than of the paths: the disk changed state (drift), or another
  // process flushed a path's device meanwhile (neighbour: the suite's other tests share it).
  static bool OfTheMoment(const std::string& cause) {
    return cause == "drift" || cause == "neighbour";
  }

  // compare a b as JSON. This disk changes state within seconds and other tests write to it; a
  // run that sees either may honestly lead with drift or neighbour (its figures are not
  // comparable). Then the expected cause must still be listed, and the pair is compared again,
  // up to three runs in all.
  static json CompareThroughDrift(const std::string& a, const std::string& b,
                                  const std::string& want) {
    json j;
    for (int run = 0; run < 3; ++run) {
      j = Compare(a, b);
      if (!OfTheMoment(Leading(j))) return j;
      EXPECT_TRUE(Lists(j["verdicts"][0]["causes"], want))
          << Leading(j) << " leads and " << want
          << " is not listed: " << j["verdicts"][0]["causes"];
    }
    return j;
  }

  static std::string LeadingThroughDrift(const std::string& a, const std::string& b,
                                         const std::string& want) {
    return Leading(CompareThroughDrift(a, b, want));
  }

  static std::string dir_, skip_, log_;
};

std::string LabCausesTest::dir_, LabCausesTest::skip_, LabCausesTest::log_;

// The leading cause of a compare of a and b must be want. When the disk changed state in each of
// the three compares, drift honestly led each time (want was still listed, CompareThroughDrift
// checks): the pair could not be judged here now, and the test says so rather than pass or fail.
#define EXPECT_LEADS(a, b, want)                                                          \
  do {                                                                                    \
    const std::string leading = LeadingThroughDrift(a, b, want);                          \
    if (LabCausesTest::OfTheMoment(leading)) {                                            \
      GTEST_SKIP() << "the disk changed state or was shared during each of three "        \
                   << "compares: " << leading << " led, " << (want) << " was listed";     \
    }                                                                                     \
    EXPECT_EQ(leading, want);                                                             \
  } while (0)

#define NEED(name)                           \
  if (!skip_.empty()) GTEST_SKIP() << skip_; \
  if (!Made(name)) GTEST_SKIP() << "the lab could not make " << name << ": " << log_;

TEST_F(LabCausesTest, Ext4AgainstXfsIsTheFilesystem) {
  NEED("ext4");
  NEED("xfs");
  EXPECT_LEADS(dir_ + "/ext4", dir_ + "/xfs", "filesystem");
}

TEST_F(LabCausesTest, XfsAgainstBtrfsIsCopyOnWrite) {
  NEED("xfs");
  NEED("btrfs");
  EXPECT_LEADS(dir_ + "/xfs", dir_ + "/btrfs", "btrfs_cow");
}

TEST_F(LabCausesTest, Ext4AgainstExt4WithoutBarriersIsTheBarrier) {
  NEED("ext4");
  NEED("ext4-nobarrier");
  json j = CompareThroughDrift(dir_ + "/ext4", dir_ + "/ext4-nobarrier", "barrier");
  if (OfTheMoment(Leading(j))) {
    GTEST_SKIP() << "the disk changed state or was shared during each of three compares: "
                 << Leading(j) << " led, barrier was listed";
  }
  EXPECT_EQ(Leading(j), "barrier");
  // Two loop devices, two images, two mount points: only the option is left to list.
  for (const json& d : j["verdicts"][0]["differences"]) {
    std::string key = d["key"];
    EXPECT_TRUE(key.find("options") != std::string::npos) << key;
  }
}

TEST_F(LabCausesTest, OverlayAgainstItsLowerDirectorysFilesystemIsTheOverlay) {
  NEED("overlay");
  // The overlay's upper layer is on the lab's ext4 (a loop device): a plain directory there
  // differs from the overlay by the overlay alone. One beside the lab directory, on the root
  // filesystem, differs by the loop device too, and the two causes' evidence then ranks them
  // by the disk's noise (the fresh-clone suite once led with loop).
  ASSERT_TRUE(platform::Default().MakeDirectory(dir_ + "/ext4/plain").ok());
  EXPECT_LEADS(dir_ + "/overlay", dir_ + "/ext4/plain", "overlay");
}

TEST_F(LabCausesTest, BindfsAgainstABindMountIsFuse) {
  NEED("bindfs");
  NEED("bind");
  EXPECT_LEADS(dir_ + "/bindfs", dir_ + "/bind", "fuse");
}

TEST_F(LabCausesTest, TryRunsTheLeadingCausesTest) {
  NEED("bindfs");
  NEED("bind");
  json j = Compare(dir_ + "/bind", dir_ + "/bindfs", "--try");
  ASSERT_TRUE(j.contains("tried")) << j.dump();
  // A leader with no test of its own (drift, when the disk changed state during the compare;
  // container_role, when the disk's noise made bindfs's operations look cheaper than the
  // bind's, as a fresh-clone run once saw): --try tests fuse after it and says so.
  EXPECT_EQ(j["tried"]["cause"], "fuse") << j["tried"].dump();
  const std::string leading = Leading(j);
  if (leading == "fuse") {
    EXPECT_FALSE(j["tried"].contains("instead_of")) << j["tried"].dump();
  } else {
    EXPECT_EQ(j["tried"]["instead_of"], leading)
        << j["tried"].dump() << j["verdicts"][0]["causes"].dump();
  }
  // bindfs against the directory it exports, measured: two targets, and the per-op ratio.
  EXPECT_EQ(j["tried"]["targets"].size(), 2u);
  EXPECT_NE(j["tried"]["effect"].get<std::string>().find("per op"), std::string::npos)
      << j["tried"]["effect"];
}

TEST_F(LabCausesTest, TryMakesANodatacowDirectoryOnBtrfs) {
  NEED("xfs");
  NEED("btrfs");
  json j = Compare(dir_ + "/xfs", dir_ + "/btrfs", "--try");
  ASSERT_TRUE(j.contains("tried")) << j.dump();
  if (j["tried"]["cause"] != "btrfs_cow") {  // the leading cause, or the next after drift
    GTEST_SKIP() << "the cause tried was not btrfs_cow this time: " << j["tried"]["cause"];
  }
  EXPECT_EQ(j["tried"]["targets"].size(), 2u) << j["tried"]["effect"];
  // Nothing of the trial is left on the btrfs mount.
  Result<std::vector<std::string>> left = platform::Default().ListDirectory(dir_ + "/btrfs");
  ASSERT_TRUE(left.ok());
  for (const std::string& name : *left) EXPECT_EQ(name.find("durprobe"), std::string::npos) << name;
}

TEST_F(LabCausesTest, DiffOfTwoProbeReportsRanksTheBarrier) {
  NEED("ext4");
  NEED("ext4-nobarrier");
  testing_support::TempDir out;
  for (const char* name : {"ext4", "ext4-nobarrier"}) {
    CliRun r = testing_support::RunDurprobe("probe --quick -q --json " + out.path() + "/" + name +
                                            ".json " + dir_ + "/" + name);
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  CliRun d = testing_support::RunDurprobe("diff --json - " + out.path() + "/ext4.json " +
                                          out.path() + "/ext4-nobarrier.json");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  json j = json::parse(d.out);
  ASSERT_FALSE(j["causes"].empty()) << d.out;
  // Two probes run one after the other: when the disk changed state between them, drift is the
  // honest first answer, and the barrier must come with it.
  if (j["causes"][0]["key"] == "drift") {
    EXPECT_TRUE(Lists(j["causes"], "barrier")) << d.out;
  } else {
    EXPECT_EQ(j["causes"][0]["key"], "barrier");
  }
  for (const json& x : j["differences"]) {
    EXPECT_EQ(x["key"].get<std::string>().find("mount_point"), std::string::npos) << x["key"];
  }
}

}  // namespace
}  // namespace durprobe
