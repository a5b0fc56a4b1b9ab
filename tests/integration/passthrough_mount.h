// The FUSE passthrough server of the integration tests, mounted for a test's lifetime.
#pragma once

#include <unistd.h>

#include <string>

#include "tests/cli_runner.h"

#ifndef DURPROBE_TEST_PASSTHROUGH  // built without libfuse3
#define DURPROBE_TEST_PASSTHROUGH ""
#endif

namespace durprobe::testing_support {

// Mounts the test passthrough server (tests/fuse_passthrough) over source at mount for its
// lifetime; flags: "--ignore-syncs", "--honour-one-in N", or "" for an honest server.
class Passthrough {
 public:
  Passthrough(const std::string& source, const std::string& mount, bool ignore_syncs)
      : Passthrough(source, mount, std::string(ignore_syncs ? "--ignore-syncs" : "")) {}
  Passthrough(const std::string& source, const std::string& mount, const std::string& flags)
      : mount_(mount) {
    if (std::string(DURPROBE_TEST_PASSTHROUGH).empty() || ::access("/dev/fuse", R_OK) != 0) {
      skip_ = "no FUSE here: built without libfuse3, or /dev/fuse is missing";
      return;
    }
    testing_support::RunShell("mkdir -p " + source + " " + mount);
    testing_support::CliRun r = testing_support::RunShell(std::string(DURPROBE_TEST_PASSTHROUGH) +
                                                          " " + flags + " " + source + " " + mount);
    mounted_ = r.exit_code == 0;
    error_ = r.err;
  }
  // Unmounts and removes the mount point, which the lab's `down` does not know: the lab's
  // directory must be empty for its removal.
  ~Passthrough() {
    if (mounted_) testing_support::RunShell("fusermount3 -u " + mount_ + " || umount -l " + mount_);
    if (skip_.empty()) testing_support::RunShell("rmdir " + mount_);
  }
  bool mounted() const { return mounted_; }
  const std::string& skip() const { return skip_; }
  const std::string& error() const { return error_; }

 private:
  std::string mount_;
  bool mounted_ = false;
  std::string error_, skip_;
};

#define PASSTHROUGH_OR_SKIP(fuse)                            \
  if (!(fuse).skip().empty()) GTEST_SKIP() << (fuse).skip(); \
  ASSERT_TRUE((fuse).mounted()) << (fuse).error()

}  // namespace durprobe::testing_support
