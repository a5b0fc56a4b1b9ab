// The readable block `inspect` prints per path (and `run` before its measurements).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "model/report.h"
#include "platform/mount_info.h"
#include "render/mount_rows.h"

namespace durprobe::render::console {

// Filesystem, mount, options, overlay layers, device chain, container role and notes.
void PrintMountBlock(const platform::MountInfo& m, std::ostream& out);

// LD_PRELOAD and the SQLite library's sync defaults, once per report.
void PrintEnvironment(const model::Context& c, std::ostream& out);

}  // namespace durprobe::render::console
