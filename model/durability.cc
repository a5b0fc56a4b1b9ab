#include "model/durability.h"

namespace durprobe::model {

std::string_view NameOf(DurabilityVerdict v) {
  switch (v) {
    case DurabilityVerdict::kDurable:
      return "durable";
    case DurabilityVerdict::kNotDurable:
      return "not_durable";
    case DurabilityVerdict::kUnproven:
      return "unproven";
  }
  return "";
}

std::string_view NameOf(LayerEffect e) {
  switch (e) {
    case LayerEffect::kPasses:
      return "passes";
    case LayerEffect::kVoids:
      return "voids";
    case LayerEffect::kUnknown:
      return "unknown";
  }
  return "";
}

std::string_view NameOf(LayerKind k) {
  switch (k) {
    case LayerKind::kPreload:
      return "preload";
    case LayerKind::kOverlay:
      return "overlay";
    case LayerKind::kFilesystem:
      return "filesystem";
    case LayerKind::kLoop:
      return "loop";
    case LayerKind::kNetwork:
      return "network";
    case LayerKind::kDevice:
      return "device";
    case LayerKind::kMeasured:
      return "measured";
    case LayerKind::kFlushes:
      return "device_flushes";
    case LayerKind::kCrashTest:
      return "crash_test";
  }
  return "";
}

std::string_view DecidingLayerName(const Durability& d) {
  return d.deciding_layer ? NameOf(*d.deciding_layer) : "";
}

}  // namespace durprobe::model
