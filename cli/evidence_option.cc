#include "cli/evidence_option.h"

#include <fmt/format.h>

#include "codec/powercut_json.h"

namespace durprobe::cli {

void AddEvidenceOption(CLI::App& app, std::string& file) {
  app.add_option("--evidence", file,
                 "A power-cut test's evidence file (durprobe powercut verify --save-evidence): "
                 "it decides the device layer of a path on the same device and filesystem");
}

Status LoadEvidence(platform::Platform& platform, const std::string& file, run::Plan& plan) {
  if (file.empty()) return Status::Ok();
  Result<std::string> text = platform.ReadTextFile(file, 1 << 20);
  if (!text.ok()) return Status::InvalidArgument("--evidence " + text.status().message());
  Result<report::PowercutEvidence> e = report::ParsePowercutEvidence(*text);
  if (!e.ok()) {
    return Status::InvalidArgument(fmt::format("--evidence {}: {}", file, e.status().message()));
  }
  plan.powercut_evidence = *e;
  return Status::Ok();
}

}  // namespace durprobe::cli
