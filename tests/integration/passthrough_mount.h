// The test passthrough FUSE server (tests/fuse_passthrough/passthrough_fs.c) mounted for a test's
// lifetime: honest, dropping syncs, honouring one sync in N, and optionally slow on every write,
// for the integration tests that need a FUSE server whose syncs they control.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <string>

#include "tests/cli_runner.h"

#ifndef DURPROBE_TEST_PASSTHROUGH
#define DURPROBE_TEST_PASSTHROUGH ""
#endif

namespace durprobe::testing_support {

// Mounts the server over source at mount for its lifetime. flags: the server's own
// ("--ignore-syncs", "--honour-one-in N", "" for an honest server); the bool form says
// --ignore-syncs or not, and delays each write by write_delay_us when above 0.
class Passthrough {
 public:
  Passthrough(const std::string& source, const std::string& mount, bool ignore_syncs,
              unsigned write_delay_us = 0)
      : Passthrough(source, mount,
                    std::string(ignore_syncs ? "--ignore-syncs" : "") +
                        (write_delay_us > 0
                             ? " --write-delay-us " + std::to_string(write_delay_us)
                             : std::string())) {}
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
  ~Passthrough() {
    if (mounted_) testing_support::RunShell("fusermount3 -u " + mount_ + " || umount -l " + mount_);
    if (skip_.empty()) testing_support::RunShell("rmdir " + mount_);
  }
  Passthrough(const Passthrough&) = delete;
  Passthrough& operator=(const Passthrough&) = delete;
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
