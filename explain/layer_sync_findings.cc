#include "explain/layer_sync_findings.h"

#include <fmt/format.h>

#include "explain/cause_signature.h"
#include "model/finding_codes.h"
#include "model/labels.h"
#include "text/units.h"

namespace durprobe::explain {

using probes::Outcome;
using probes::Pattern;
using probes::Primitive;

namespace {

bool IsLayer(const model::Target& t) {
  if (!t.mount) return false;
  const std::string& fs = t.mount->fstype;
  return fs.starts_with("fuse") || fs == "virtiofs" || fs == "9p";
}

// The sync call's median of a probe with enough operations to stand as evidence.
const probes::ProbeResult* Evidence(const model::Target& t, Primitive prim, Pattern pat) {
  for (const probes::ProbeResult& r : t.probes) {
    if (r.spec.primitive != prim || r.spec.pattern != pat || r.outcome != Outcome::kOk) continue;
    if (r.spec.primitive == Primitive::kFdatasync && r.spec.write_size != 4096) continue;
    if (r.ops < kMinEvidenceOps || !r.has_sync_part || r.sync_latency.p50 == 0) continue;
    return &r;
  }
  return nullptr;
}

}  // namespace

void AddLayerSyncFindings(std::vector<model::Target>& targets) {
  struct Kind {
    Primitive prim;
    Pattern pat;
    const char* loses;
  };
  const Kind kinds[] = {
      {Primitive::kDirFsync, Pattern::kCreate, "new file names may not survive a power cut"},
      {Primitive::kFdatasync, Pattern::kOverwrite, "written data may not survive a power cut"}};
  for (model::Target& layer : targets) {
    if (!IsLayer(layer)) continue;
    for (const Kind& k : kinds) {
      const probes::ProbeResult* here = Evidence(layer, k.prim, k.pat);
      if (here == nullptr) continue;
      for (const model::Target& disk : targets) {
        if (&disk == &layer || !disk.mount || !disk.mount->device) continue;
        const probes::ProbeResult* there = Evidence(disk, k.prim, k.pat);
        if (there == nullptr) continue;
        double fast = static_cast<double>(here->sync_latency.p50);
        double slow = static_cast<double>(there->sync_latency.p50);
        if (fast * kLayerFasterRatio > slow) continue;
        layer.findings.push_back(
            {model::Severity::kWarn, model::codes::kLayerSyncFasterThanDisk,
             fmt::format("{}'s sync call takes {} (p50) on this {} layer against {} on {} ({} on "
                         "{}): a layer passes its syncs on to a disk and cannot finish them "
                         "sooner than one, so they likely stop in the layer; {}",
                         model::ProbeLabel(here->spec), text::FormatNanos(fast),
                         layer.mount->fstype, text::FormatNanos(slow), disk.path,
                         disk.mount->fstype, disk.mount->device->name, k.loses)});
        break;
      }
    }
  }
}

}  // namespace durprobe::explain
