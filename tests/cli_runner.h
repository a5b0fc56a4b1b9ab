// Runs the durprobe binary the way a user would, capturing exit status, stdout and stderr.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/test_dirs.h"

namespace durprobe::testing_support {

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// The prefix that runs a shell command as `nobody` (uid and gid 65534, no groups): the other
// user of the security tests, run against root durprobe.
inline const std::string kAsNobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";

inline std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs a shell command line, stdout and stderr kept apart, no standard input.
inline CliRun RunShell(const std::string& command) {
  TempDir io;
  std::string cmd = "(" + command + ") >" + io.path() + "/out 2>" + io.path() + "/err </dev/null";
  int status = std::system(cmd.c_str());
  CliRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = Slurp(io.path() + "/out");
  run.err = Slurp(io.path() + "/err");
  return run;
}

// args is appended to the binary's path as shell words; callers quote what needs quoting.
inline CliRun RunDurprobe(const std::string& args) {
  return RunShell(std::string(DURPROBE_BINARY) + " " + args);
}

inline int CountLines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

// Bad input: exit status 2, exactly one line on stderr starting "durprobe: error: " and
// containing needle, nothing on stdout. what names the command in failure messages.
inline void ExpectUsageError(const CliRun& run, const std::string& needle,
                             const std::string& what) {
  EXPECT_EQ(run.exit_code, 2) << what << "\n" << run.err;
  EXPECT_EQ(CountLines(run.err), 1) << what << "\n" << run.err;
  EXPECT_EQ(run.err.rfind("durprobe: error: ", 0), 0u) << what << "\n" << run.err;
  EXPECT_NE(run.err.find(needle), std::string::npos) << what << "\n" << run.err;
  EXPECT_TRUE(run.out.empty()) << what << "\n" << run.out;
}

// `durprobe ARGS` is a usage error containing needle.
inline void ExpectDurprobeUsageError(const std::string& args, const std::string& needle) {
  ExpectUsageError(RunDurprobe(args), needle, args);
}

// `durprobe sqlite ARGS` is a usage error containing needle.
inline void ExpectSqliteUsageError(const std::string& args, const std::string& needle) {
  ExpectUsageError(RunDurprobe("sqlite " + args), needle, args);
}

}  // namespace durprobe::testing_support
