// Runs another program (mkfs) as a child process and keeps what it printed, for the crash device.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"

namespace durprobe::platform {

struct ProgramRun {
  int exit_code = 0;
  std::string output;  // stdout and stderr together, at most 64 KiB
};

// Forks (Platform::Spawn) and execs argv[0], found on PATH, with stdin from /dev/null. An error
// when it cannot be started or is killed by a signal; a nonzero exit is a ProgramRun, not an
// error (exit code 127: not found). Interrupted as Platform::WaitChild.
Result<ProgramRun> RunProgram(Platform& platform, const std::vector<std::string>& argv);

}  // namespace durprobe::platform
