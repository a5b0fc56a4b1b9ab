// The readable block `inspect` prints per path (and `run` before its measurements).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "platform/mount_info.h"
#include "report/report.h"

namespace durprobe::report {

// The block as labelled lines (a label is "" where a line continues the one above it), for the
// console and the HTML reporter alike.
struct MountRow {
  std::string label;
  std::string text;
};
std::vector<MountRow> MountRows(const platform::MountInfo& m);

// Filesystem, mount, options, overlay layers, device chain, container role and notes.
void PrintMountBlock(const platform::MountInfo& m, std::ostream& out);

// LD_PRELOAD and the SQLite library's sync defaults, once per report.
void PrintEnvironment(const Context& c, std::ostream& out);

}  // namespace durprobe::report
