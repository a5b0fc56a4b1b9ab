#include "render/json/json_reporter.h"

#include "codec/report_json.h"
#include "render/json/compare_json.h"
#include "render/json/diff_json.h"
#include "render/json/summary_json.h"

namespace durprobe::report {

Status JsonReporter::Write(const Report& report, std::ostream& out) const {
  WriteJson(report, out);
  return Status::Ok();
}

Status JsonReporter::Write(const Comparison& comparison, std::ostream& out) const {
  out << DumpJson(ToJson(comparison));
  return Status::Ok();
}

Status JsonReporter::Write(const Diff& diff, std::ostream& out) const {
  out << DumpJson(ToJson(diff));
  return Status::Ok();
}

Status JsonReporter::Write(const Summary& summary, std::ostream& out) const {
  out << DumpJson(SummaryJson(summary.rows));
  return Status::Ok();
}

}  // namespace durprobe::report
