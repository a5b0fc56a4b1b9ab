// Podman for the integration tests: the image deploy/image/build.sh builds from Debian packages
// (localhost/durprobe-test:VERSION, the binary under test inside), a way to run it, and named
// volumes that remove themselves. Everything skips, with the reason, where Podman, mmdebstrap,
// a Debian mirror or a container runtime is missing.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/cli_runner.h"

namespace durprobe::testing_support {

// podman's global options. crun refuses this host's hybrid cgroups and the default rlimits
// cannot be set here, so runc, cgroupfs and explicit limits; $DURPROBE_TEST_PODMAN replaces the
// global part (e.g. "podman" where the defaults work).
inline std::string PodmanCommand() {
  const char* env = std::getenv("DURPROBE_TEST_PODMAN");
  return env && *env ? env : "podman --runtime runc --cgroup-manager cgroupfs";
}
inline constexpr const char* kPodmanLimits = "--ulimit nofile=20000:20000 --ulimit nproc=4096:4096";

struct PodmanImage {
  std::string tag;      // localhost/durprobe-test:VERSION when ready
  std::string skip;     // why the tests cannot run here; empty when they can
  std::string failure;  // what is wrong with the image itself: every test using it fails
};

// In a test body or SetUp: fail while the image is broken, skip while Podman cannot run here.
#define DURPROBE_NEED_IMAGE()                                      \
  do {                                                             \
    const ::durprobe::testing_support::PodmanImage& need_image =   \
        ::durprobe::testing_support::TestImage();                  \
    if (!need_image.failure.empty()) FAIL() << need_image.failure; \
    if (!need_image.skip.empty()) GTEST_SKIP() << need_image.skip; \
  } while (0)

inline std::string LastLine(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == '\n') t.pop_back();
  std::size_t nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

// Builds (or finds up to date) the image once per test process. The Debian root is cached in
// ~/.cache/durprobe-image across runs: only a machine's first run downloads it (minutes); later
// ones import the binary in seconds, or nothing when it has not changed.
inline const PodmanImage& TestImage() {
  static const PodmanImage image = [] {
    PodmanImage i;
    if (RunShell("command -v podman").exit_code != 0) {
      i.skip = "podman is not installed (Debian: podman and runc; scripts/deps.sh test)";
      return i;
    }
    if (RunShell("command -v mmdebstrap").exit_code != 0) {
      i.skip = "mmdebstrap is not installed, so the image cannot be built (scripts/deps.sh test)";
      return i;
    }
    CliRun built =
        RunShell(std::string(DURPROBE_SOURCE_DIR) + "/deploy/image/build.sh --durprobe " +
                 DURPROBE_BINARY + " --name localhost/durprobe-test");
    if (built.exit_code == 3) {
      i.skip = "the image's Debian root could not be built: " + LastLine(built.err);
      return i;
    }
    if (built.exit_code != 0) {
      i.failure =
          "deploy/image/build.sh failed (" + std::to_string(built.exit_code) + "): " + built.err;
      return i;
    }
    std::string tag = LastLine(built.out);
    CliRun trial =
        RunShell(PodmanCommand() + " run --rm " + kPodmanLimits + " " + tag + " --version");
    if (trial.exit_code != 0 &&
        trial.err.find("error while loading shared libraries") != std::string::npos) {
      // The container ran, the image is what is wrong: that is a failure, not a skip.
      i.failure = "the image lacks a library the binary links: " + LastLine(trial.err);
      return i;
    }
    if (trial.exit_code != 0) {
      i.skip = "podman cannot run a container here: " + LastLine(trial.err);
      return i;
    }
    i.tag = tag;
    return i;
  }();
  return image;
}

// `podman run ARGS` with the test limits; args holds the options, the image and its command.
inline CliRun PodmanRun(const std::string& args) {
  return RunShell(PodmanCommand() + " run " + kPodmanLimits + " " + args);
}

// A named volume of its own, removed (with its data) at the end of the test.
class PodmanVolume {
 public:
  explicit PodmanVolume(const std::string& what)
      : name_("durprobe-test-" + what + "-" + std::to_string(::getpid())) {
    RunShell(PodmanCommand() + " volume rm -f " + name_);
    created_ = RunShell(PodmanCommand() + " volume create " + name_).exit_code == 0;
  }
  ~PodmanVolume() { RunShell(PodmanCommand() + " volume rm -f " + name_); }
  PodmanVolume(const PodmanVolume&) = delete;
  PodmanVolume& operator=(const PodmanVolume&) = delete;
  const std::string& name() const { return name_; }
  bool created() const { return created_; }

 private:
  std::string name_;
  bool created_ = false;
};

// The JSON document a command printed, or a test failure naming what it printed instead.
inline nlohmann::json ParseJsonOrFail(const CliRun& run) {
  nlohmann::json j = nlohmann::json::parse(run.out, nullptr, false);
  if (j.is_discarded()) ADD_FAILURE() << "not JSON: " << run.out << run.err;
  return j;
}

}  // namespace durprobe::testing_support
