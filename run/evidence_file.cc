#include "run/evidence_file.h"

#include <fmt/format.h>

#include "codec/powercut_json.h"
#include "platform/proof_file.h"

namespace durprobe::run {
namespace {

constexpr std::size_t kMaxEvidenceBytes = 1 << 20;  // verify writes about 2 KB

}  // namespace

Status LoadEvidence(platform::Platform& platform, const std::string& file, Plan& plan) {
  if (file.empty()) return Status::Ok();
  // A proof only when no other local user could have planted or changed it (docs/powercut.md).
  Result<std::string> text = platform::ReadOwnedFile(platform, file, kMaxEvidenceBytes);
  if (!text.ok()) return Status::InvalidArgument("--evidence " + text.status().message());
  Result<model::PowercutEvidence> e = codec::ParsePowercutEvidence(*text);
  if (!e.ok()) {
    return Status::InvalidArgument(fmt::format("--evidence {}: {}", file, e.status().message()));
  }
  plan.powercut_evidence = *e;
  return Status::Ok();
}

}  // namespace durprobe::run
