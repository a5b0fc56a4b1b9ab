// The readable block `inspect` prints per path (and `run` before its measurements).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "platform/mount_info.h"
#include "report/format/mount_rows.h"
#include "report/model/report.h"

namespace durprobe::report {

// Filesystem, mount, options, overlay layers, device chain, container role and notes.
void PrintMountBlock(const platform::MountInfo& m, std::ostream& out);

// LD_PRELOAD and the SQLite library's sync defaults, once per report.
void PrintEnvironment(const Context& c, std::ostream& out);

}  // namespace durprobe::report
