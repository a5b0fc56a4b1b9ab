// A stopgap reader for `durprobe report --html`: the parts of a saved durprobe.report/1 document
// the HTML reporter draws (context, mount and device, findings, probes with their histograms,
// the SQLite matrix with its sync counts and correlation). To be replaced by the typed reader
// report::FromJson (report/json_reader.h) once it lands: callers then switch to it and this file
// goes.
#pragma once

#include <nlohmann/json.hpp>

#include "platform/status.h"
#include "report/report.h"

namespace durprobe::report {

// doc has passed ValidateReport (report/diff_analysis.h). A key of the wrong type gives
// InvalidArgument naming it; a missing key leaves the field at its default.
Result<Report> ReadReportForHtml(const nlohmann::json& doc);

}  // namespace durprobe::report
