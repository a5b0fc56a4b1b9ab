// The effective durability of one path: one verdict composed from every layer between the path
// and stable media (analysis/durability_model.h decides it; every consumer reads it).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace durprobe::model {

enum class DurabilityVerdict {
  kDurable,     // every layer passes a sync on to stable media, as far as can be seen
  kNotDurable,  // a layer voids it: a sync returns before the data is on stable media
  kUnproven,    // no layer voids it, but one cannot be seen through (named, with what proves it)
};
std::string_view NameOf(DurabilityVerdict v);  // "durable", "not_durable", "unproven"

// What one layer does to a sync on its way down.
enum class LayerEffect {
  kPasses,   // passes the sync on to the layer below (or, for media, keeps it)
  kVoids,    // drops it, or keeps the data in memory only
  kUnknown,  // cannot be seen through from here: may drop or delay it
};
std::string_view NameOf(LayerEffect e);  // "passes", "voids", "unknown"

// Which layer between the path and stable media a DurabilityLayer is.
enum class LayerKind {
  kPreload,     // an LD_PRELOAD library in front of the system calls
  kOverlay,     // an overlay (a container's root)
  kFilesystem,  // the mounted filesystem
  kLoop,        // a loop device, backed by a file
  kNetwork,     // a network filesystem
  kDevice,      // the block device and its write cache
  kMeasured,    // the evidence: what the probes measured
  kFlushes,     // the evidence: the flushes the devices counted for each sync
  kCrashTest,   // the evidence: power cuts on a crash device made like the path's filesystem
};
// "preload", "overlay", "filesystem", "loop", "network", "device", "measured", "device_flushes",
// "crash_test"
std::string_view NameOf(LayerKind k);

struct DurabilityLayer {
  LayerKind kind = LayerKind::kFilesystem;
  std::string name;  // what it is here: "ext4 on /dev/vda1", "loop0 backed by /tmp/x.img"
  LayerEffect effect = LayerEffect::kPasses;
  std::string reason;  // one sentence: why it has that effect
};

struct Durability {
  DurabilityVerdict verdict = DurabilityVerdict::kUnproven;
  std::vector<DurabilityLayer> layers;      // from the path down to the media, then the evidence
  std::optional<LayerKind> deciding_layer;  // the kind of the layer that decided (unset: durable)
  std::string reason;                       // one sentence: the verdict and why
  std::string to_prove;                     // unproven only: what would prove it
  std::vector<std::string> findings;        // the finding codes behind the deciding layer
};

// The deciding layer's name, "" when none decided.
std::string_view DecidingLayerName(const Durability& d);

}  // namespace durprobe::model
