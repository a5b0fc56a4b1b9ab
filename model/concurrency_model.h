// The concurrency part of a target: how syncs scale with concurrent writers
// (targets[].concurrency[], probes/concurrency.h) and serial synced writes set beside the
// queue-depth figure a spec sheet quotes (targets[].serial_vs_concurrent).
#pragma once

#include <string>

#include "probes/concurrency.h"
#include "probes/queue_depth.h"

namespace durprobe::model {

struct SerialVsConcurrent {
  probes::QueueDepthResult concurrent;  // random writes, O_DIRECT, no sync, many in flight
  // The serial synced figure: the ordinary probe of fdatasync overwrite at the same size, or
  // the one-writer threads row when the probe did not run. "" and 0 when neither exists.
  std::string serial_label;
  double serial_ops_per_sec = 0.0;
  double ratio = 0.0;  // concurrent / serial; 0 when either is missing
};

}  // namespace durprobe::model
