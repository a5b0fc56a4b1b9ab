#include "run/writers.h"

#include <algorithm>
#include <map>

namespace durprobe::run {

platform::ProcessIoSnapshot WritersBefore(platform::Platform& platform) {
  return platform::ReadProcessIo(platform, "/proc");
}

std::vector<model::Writer> TopWriters(const platform::ProcessIoSnapshot& before,
                                      const platform::ProcessIoSnapshot& after) {
  std::map<int, const platform::ProcessIo*> was;
  for (const platform::ProcessIo& p : before.processes) was[p.pid] = &p;
  std::vector<model::Writer> out;
  for (const platform::ProcessIo& p : after.processes) {
    if (p.pid == after.self || (after.self != 0 && p.ppid == after.self)) continue;
    auto it = was.find(p.pid);
    // A pid reused by another program since: count the new one from 0.
    const bool same =
        it != was.end() && it->second->name == p.name && it->second->write_bytes <= p.write_bytes;
    const std::uint64_t bytes = p.write_bytes - (same ? it->second->write_bytes : 0);
    const std::uint64_t calls =
        p.syscw - (same && it->second->syscw <= p.syscw ? it->second->syscw : 0);
    if (bytes == 0) continue;
    out.push_back({p.pid, p.name, bytes, calls});
  }
  std::sort(out.begin(), out.end(), [](const model::Writer& a, const model::Writer& b) {
    return a.write_bytes != b.write_bytes ? a.write_bytes > b.write_bytes : a.pid < b.pid;
  });
  if (out.size() > kNamedWriters) out.resize(kNamedWriters);
  return out;
}

}  // namespace durprobe::run
