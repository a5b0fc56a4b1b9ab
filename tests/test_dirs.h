// Test helpers: a temporary directory removed after the test, and a few direct syscalls the
// tests need to set up situations (the product code reaches the OS only through platform/).
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "platform/platform.h"
#include "platform/scratch.h"

namespace durprobe::testing_support {

class TempDir {
 public:
  explicit TempDir(const std::string& parent = "") {
    std::string base = parent.empty() ? (std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp")
                                      : parent;
    std::string templ = base + "/durprobe-test-XXXXXX";
    char* made = ::mkdtemp(templ.data());
    path_ = made ? made : "";
  }
  ~TempDir() {
    // Best effort: a test that leaves an undeletable entry has its own assertions to fail.
    if (!path_.empty()) (void)platform::RemoveTree(platform::Default(), path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// A fresh directory named after the test under the temp dir, for the caller to remove (or leave
// for inspection).
inline std::string MakeTempDir(const std::string& name) {
  std::string dir = "/tmp/durprobe-" + name + "-" + std::to_string(::getpid());
  (void)platform::RemoveTree(platform::Default(), dir);  // a previous run's, if any
  Status made = platform::Default().MakeDirectory(dir);
  if (!made.ok()) ADD_FAILURE() << made.message();
  return dir;
}

inline int Symlink(const std::string& target, const std::string& link) {
  return ::symlink(target.c_str(), link.c_str());
}

inline bool IsRoot() { return ::geteuid() == 0; }

}  // namespace durprobe::testing_support
