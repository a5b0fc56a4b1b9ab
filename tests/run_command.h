// Runs a shell command for end-to-end tests and captures its exit status, stdout and stderr.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <sys/wait.h>

#include "platform/platform.h"

namespace durprobe::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};

inline CommandResult RunCommand(const std::string& command) {
  platform::Platform& p = platform::Default();
  char dir_template[] = "/tmp/durprobe-cmd-XXXXXX";
  const char* dir = ::mkdtemp(dir_template);
  EXPECT_NE(dir, nullptr);
  std::string out_path = std::string(dir) + "/out", err_path = std::string(dir) + "/err";
  int status = std::system((command + " >" + out_path + " 2>" + err_path + " </dev/null").c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (Result<std::string> t = p.ReadTextFile(out_path, 16 << 20); t.ok()) r.out = *t;
  if (Result<std::string> t = p.ReadTextFile(err_path, 1 << 20); t.ok()) r.err = *t;
  (void)p.Unlink(out_path);
  (void)p.Unlink(err_path);
  (void)p.RemoveDirectory(dir);
  return r;
}

}  // namespace durprobe::testing
