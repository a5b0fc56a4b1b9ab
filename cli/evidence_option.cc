#include "cli/evidence_option.h"

namespace durprobe::cli {

void AddEvidenceOption(CLI::App& app, std::string& file) {
  app.add_option("--evidence", file,
                 "A power-cut test's evidence file (durprobe powercut verify --save-evidence): "
                 "it decides the device layer of a path on the same device and filesystem");
}

}  // namespace durprobe::cli
