// What each process has written, from /proc/PID/io (write_bytes: bytes it sent to the block layer;
// syscw: its write calls) with its name (/proc/PID/comm) and parent (/proc/PID/stat): read before
// and after a run, the processes that wrote most meanwhile are the neighbours a report names
// (run/writers.h). Root reads every process's; another user reads only its own.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "platform/status.h"

namespace durprobe::platform {

class Platform;

struct ProcessIo {
  int pid = 0;
  int ppid = 0;
  std::string name;  // comm: "fio", "postgres"
  std::uint64_t write_bytes = 0;
  std::uint64_t syscw = 0;
  bool operator==(const ProcessIo&) const = default;
};

// /proc/PID/io's text: InvalidArgument when it has no write_bytes line.
Result<ProcessIo> ParseProcIo(std::string_view text);
// The parent's pid from /proc/PID/stat's text ("1234 (name with) spaces) S 1 ..."); 0 when
// unreadable.
int ParentPidOf(std::string_view stat);

// Every process under proc whose io can be read (others are skipped: they ended, or belong to
// another user); self is the reading process's own pid (from proc/self/stat).
struct ProcessIoSnapshot {
  int self = 0;
  std::vector<ProcessIo> processes;  // sorted by pid
};
ProcessIoSnapshot ReadProcessIo(Platform& p, const std::string& proc);

}  // namespace durprobe::platform
