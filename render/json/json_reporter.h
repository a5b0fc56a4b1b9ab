// The JSON format behind the output seam; the documents' keys are written by codec/
// (durprobe.report/1) and by this folder (compare, diff, summary).
#pragma once

#include <ostream>

#include "render/reporter.h"

namespace durprobe::render::json {

// The JSON format behind the output seam: durprobe.report/1, durprobe.compare/1, durprobe.diff/1.
class JsonReporter : public Reporter {
 public:
  Status Write(const model::Report& report, std::ostream& out) const override;
  Status Write(const explain::Comparison& comparison, std::ostream& out) const override;
  Status Write(const explain::Diff& diff, std::ostream& out) const override;
  Status Write(const explain::Summary& summary, std::ostream& out) const override;
  Status Write(const model::PowercutEvidence& evidence, std::ostream& out) const override;
};

}  // namespace durprobe::render::json
