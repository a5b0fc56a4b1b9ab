// What a path is, as the labelled lines `inspect` prints (render/console/mount_console.h)
// and the HTML page tabulates: one view shared by both formats.
#pragma once

#include <string>
#include <vector>

#include "platform/mount_info.h"

namespace durprobe::render {

// The block as labelled lines (a label is "" where a line continues the one above it), for the
// console and the HTML reporter alike.
struct MountRow {
  std::string label;
  std::string text;
};
std::vector<MountRow> MountRows(const platform::MountInfo& m);

}  // namespace durprobe::render
