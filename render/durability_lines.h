// The durability verdict as the lines every format prints once per path (console, Markdown,
// HTML): the verdict with its deciding layer, the chain of layers, what would prove it.
#pragma once

#include <string>
#include <vector>

#include "model/durability.h"

namespace durprobe::render {

struct DurabilityText {
  std::string headline;  // "not durable: filesystem (tmpfs (/dev/shm)): tmpfs keeps files ..."
  std::string chain;     // "ext4 (/mnt/a) passes > loop0 backed by /dev/shm/x passes > ..."
  std::string to_prove;  // unproven only: "a power-cut test, ..."
};
DurabilityText DurabilityTextOf(const model::Durability& d);

}  // namespace durprobe::render
