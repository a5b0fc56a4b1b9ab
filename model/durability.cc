#include "model/durability.h"

namespace durprobe::report {

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

}  // namespace durprobe::report
