#include "render/json/json_reporter.h"

#include "codec/powercut_json.h"
#include "codec/report_json.h"
#include "render/json/compare_json.h"
#include "render/json/diff_json.h"
#include "render/json/summary_json.h"

namespace durprobe::render::json {

Status JsonReporter::Write(const model::Report& report, std::ostream& out) const {
  codec::WriteJson(report, out);
  return Status::Ok();
}

Status JsonReporter::Write(const explain::Comparison& comparison, std::ostream& out) const {
  out << codec::DumpJson(ToJson(comparison));
  return Status::Ok();
}

Status JsonReporter::Write(const explain::Diff& diff, std::ostream& out) const {
  out << codec::DumpJson(ToJson(diff));
  return Status::Ok();
}

Status JsonReporter::Write(const explain::Summary& summary, std::ostream& out) const {
  out << codec::DumpJson(SummaryJson(summary.rows));
  return Status::Ok();
}

Status JsonReporter::Write(const model::PowercutEvidence& evidence, std::ostream& out) const {
  out << codec::PowercutEvidenceDocument(evidence);
  return Status::Ok();
}

}  // namespace durprobe::render::json
