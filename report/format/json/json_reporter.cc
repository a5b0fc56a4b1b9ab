#include "report/format/json/json_reporter.h"

#include "report/codec/report_json.h"
#include "report/format/json/compare_json.h"
#include "report/format/json/diff_json.h"
#include "report/format/json/summary_json.h"

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
