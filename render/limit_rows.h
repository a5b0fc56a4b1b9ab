// The limits a run had, as labelled lines beside a path's mount block (`inspect` and every
// report's console, Markdown and HTML): the CPU quota (context.cpu_quota) and the cgroup I/O
// limit on the path's device (context.io_limits). One view shared by the formats.
#pragma once

#include <vector>

#include "model/report.h"
#include "render/mount_rows.h"

namespace durprobe::render {

// "cpu quota" and "I/O limit" rows, each only where its cgroup controller was seen (a report
// from a host without one, or saved before these keys, shows none). m: the path's mount, whose
// device picks the I/O limit; null lists every limited device.
std::vector<MountRow> LimitRows(const model::Context& c, const platform::MountInfo* m);

}  // namespace durprobe::render
