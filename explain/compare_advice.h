// What compare advises for the component that dominates a path's gap: a slower flush path, a
// dearer file operation (named by the layer inspect found: overlayfs, FUSE, a host share, a
// network filesystem), or dearer file creation and renames.
#pragma once

#include <string>

#include "explain/compare_analysis.h"
#include "model/report.h"

namespace durprobe::explain {

// The advice for dominant (kPerSync, kPerOp or kMetadata) on t's path.
std::string CompareAdvice(Dominant dominant, const model::Target& t);

}  // namespace durprobe::explain
