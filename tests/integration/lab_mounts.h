// The lab of real mounts (scripts/lab-mounts.sh) as a test fixture: LabMountsTest brings the lab
// up in a temporary directory once per test process and takes it down after; INSPECT_OR_SKIP
// identifies one of its mounts or skips with the reason. Every case using it is named
// LabMountsTest.*, so ctest runs them one at a time (tests/CMakeLists.txt).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>

#include "analysis/mount_findings.h"
#include "platform/inspect.h"
#include "tests/cli_runner.h"
#include "tests/test_dirs.h"

namespace durprobe {

using platform::MountInfo;
using testing_support::CliRun;

// Runs scripts/lab-mounts.sh ACTION DIR.
inline CliRun Lab(const std::string& action, const std::string& dir) {
  testing_support::TempDir io;
  std::string cmd = std::string("bash ") + DURPROBE_SOURCE_DIR + "/scripts/lab-mounts.sh " +
                    action + " " + dir + " >" + io.path() + "/out 2>" + io.path() + "/err";
  int status = std::system(cmd.c_str());
  CliRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.out = testing_support::Slurp(io.path() + "/out");
  run.err = testing_support::Slurp(io.path() + "/err");
  return run;
}

class LabMountsTest : public ::testing::Test {
 protected:
  // ctest runs each case in its own process, so the lab is made per case; up is idempotent.
  static void SetUpTestSuite() {
    if (!testing_support::IsRoot()) {
      skip_reason_ = "not root: the lab needs mount and losetup";
      return;
    }
    // Not a TempDir: removing a tree recursively while mounts may remain would reach into them;
    // the lab's own `down` empties the directory and only an empty one is removed.
    char tmpl[] = "/tmp/durprobe-lab-XXXXXX";
    if (::mkdtemp(tmpl) == nullptr) {
      skip_reason_ = "cannot create a temporary directory";
      return;
    }
    dir_ = tmpl;
    CliRun r = Lab("up", dir_);
    up_exit_ = r.exit_code;
    up_log_ = r.err;
    if (r.exit_code == 2) skip_reason_ = "lab-mounts.sh refused: " + r.err;
  }

  static void TearDownTestSuite() {
    if (dir_.empty()) return;
    CliRun r = Lab("down", dir_);
    EXPECT_EQ(r.exit_code, 0) << "lab-mounts.sh down: " << r.err;
    (void)platform::Default().RemoveDirectory(dir_);
    dir_.clear();
  }

  // Whether lab-mounts.sh said it could not make name ("not set up: ext4 xfs ..." on stderr).
  static bool LabCouldNotMount(const std::string& name) {
    std::size_t at = up_log_.find("not set up:");
    if (up_exit_ == 0 || at == std::string::npos) return false;
    std::istringstream words(up_log_.substr(at + 11, up_log_.find('\n', at) - at - 11));
    std::string word;
    while (words >> word) {
      if (word == name) return true;
    }
    return false;
  }

  // The identification of DIR/name; a skip when the lab could not mount it (a kernel feature or
  // tool missing), and a failure when it was mounted but inspect cannot identify it.
  std::optional<MountInfo> Inspect(const std::string& name) {
    if (!skip_reason_.empty()) return std::nullopt;
    std::string path = dir_ + "/" + name;
    if (LabCouldNotMount(name)) {
      missing_ =
          "the lab could not mount " + name + " (kernel feature or tool missing?): " + up_log_;
      return std::nullopt;
    }
    Result<MountInfo> m = platform::InspectPath(platform::Default(), path);
    if (!m.ok()) {
      ADD_FAILURE() << "the lab mounted " << path << " but inspect fails: " << m.status().message();
      return std::nullopt;
    }
    if (m->mount_point != path) {
      ADD_FAILURE() << "the lab mounted " << path << " but inspect finds the mount at "
                    << m->mount_point << " (" << m->fstype << ")";
      return std::nullopt;
    }
    return *m;
  }

  static bool HasCode(const MountInfo& m, const std::string& code) {
    std::vector<model::Finding> f = analysis::MountFindings(m);
    return std::any_of(f.begin(), f.end(), [&](const model::Finding& x) { return x.code == code; });
  }

  std::string SkipReason() const { return skip_reason_.empty() ? missing_ : skip_reason_; }

  inline static std::string dir_, skip_reason_, up_log_;
  inline static int up_exit_ = -1;
  std::string missing_;
};

#define INSPECT_OR_SKIP(var, name)              \
  std::optional<MountInfo> var = Inspect(name); \
  if (!var) {                                   \
    if (HasFailure()) return;                   \
    GTEST_SKIP() << SkipReason();               \
  }

}  // namespace durprobe
