#include "cli/evidence_option.h"

#include <fmt/format.h>

#include "codec/powercut_json.h"
#include "platform/proof_file.h"

namespace durprobe::cli {
namespace {

constexpr std::size_t kMaxEvidenceBytes = 1 << 20;  // verify writes about 2 KB

}  // namespace

void AddEvidenceOption(CLI::App& app, std::string& file) {
  app.add_option("--evidence", file,
                 "A power-cut test's evidence file (durprobe powercut verify --save-evidence): "
                 "it decides the device layer of a path on the same device and filesystem");
}

Status LoadEvidence(platform::Platform& platform, const std::string& file, run::Plan& plan) {
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

}  // namespace durprobe::cli
