#include "platform/proc_io.h"

#include <algorithm>
#include <charconv>

#include "platform/platform.h"

namespace durprobe::platform {
namespace {

constexpr std::size_t kMaxProcFileBytes = 4096;

bool ProcNumber(std::string_view s, std::uint64_t& out) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.remove_suffix(1);
  if (s.empty()) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Result<ProcessIo> ParseProcIo(std::string_view text) {
  ProcessIo io;
  bool found = false;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string_view key = line.substr(0, colon);
    std::uint64_t v = 0;
    if (!ProcNumber(line.substr(colon + 1), v)) continue;
    if (key == "write_bytes") {
      io.write_bytes = v;
      found = true;
    }
    if (key == "syscw") io.syscw = v;
  }
  if (!found) return Status::InvalidArgument("no write_bytes line");
  return io;
}

int ParentPidOf(std::string_view stat) {
  // The name is in parentheses and may hold anything: the fields after the last ')' are fixed.
  std::size_t close = stat.rfind(')');
  if (close == std::string_view::npos || close + 4 > stat.size()) return 0;
  std::string_view rest = stat.substr(close + 2);  // "S 1 ..."
  std::size_t sp = rest.find(' ');
  if (sp == std::string_view::npos) return 0;
  rest.remove_prefix(sp + 1);
  std::uint64_t ppid = 0;
  return ProcNumber(rest.substr(0, rest.find(' ')), ppid) ? static_cast<int>(ppid) : 0;
}

ProcessIoSnapshot ReadProcessIo(Platform& p, const std::string& proc) {
  ProcessIoSnapshot snap;
  if (Result<std::string> self = p.ReadTextFile(proc + "/self/stat", kMaxProcFileBytes);
      self.ok()) {
    std::uint64_t pid = 0;
    if (ProcNumber(std::string_view(*self).substr(0, self->find(' ')), pid)) {
      snap.self = static_cast<int>(pid);
    }
  }
  Result<std::vector<std::string>> entries = p.ListDirectory(proc);
  if (!entries.ok()) return snap;
  for (const std::string& e : *entries) {
    std::uint64_t pid = 0;
    if (!ProcNumber(e, pid)) continue;
    const std::string dir = proc + "/" + e;
    Result<std::string> io_text = p.ReadTextFile(dir + "/io", kMaxProcFileBytes);
    if (!io_text.ok()) continue;
    Result<ProcessIo> io = ParseProcIo(*io_text);
    if (!io.ok()) continue;
    io->pid = static_cast<int>(pid);
    if (Result<std::string> comm = p.ReadTextFile(dir + "/comm", kMaxProcFileBytes); comm.ok()) {
      io->name = *comm;
      while (!io->name.empty() && io->name.back() == '\n') io->name.pop_back();
    }
    if (Result<std::string> stat = p.ReadTextFile(dir + "/stat", kMaxProcFileBytes); stat.ok()) {
      io->ppid = ParentPidOf(*stat);
    }
    snap.processes.push_back(std::move(*io));
  }
  std::sort(snap.processes.begin(), snap.processes.end(),
            [](const ProcessIo& a, const ProcessIo& b) { return a.pid < b.pid; });
  return snap;
}

}  // namespace durprobe::platform
