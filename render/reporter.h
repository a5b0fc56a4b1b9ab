// The output seam: every file format is one Reporter, in a folder of its own. A reporter only
// formats: it turns a document (a report, a comparison, a diff, summarize's rows, saved reports
// rendered together) into text on a stream. Which formats exist, their names and options and
// the documents each renders are one table in the driver (output/formats.h); where the text goes
// (stdout, a file written atomically, checked before measuring) is the emit path's job
// (output/output.h), the same for every format and every subcommand.
#pragma once

#include <ostream>

#include "model/powercut.h"
#include "model/report.h"
#include "platform/status.h"

namespace durprobe::explain {
struct Comparison;  // explain/compare_analysis.h
struct Diff;        // explain/diff_analysis.h
struct Summary;     // explain/summary.h
}  // namespace durprobe::explain

namespace durprobe::render::html {
struct SavedReports;  // render/html/html_reporter.h
}  // namespace durprobe::render::html

namespace durprobe::render {

class Reporter {
 public:
  virtual ~Reporter() = default;
  // A run's report (run, probe, sqlite, check; possibly partial: context.interrupted).
  virtual Status Write(const model::Report& report, std::ostream& out) const = 0;
  // compare's, diff's, summarize's and report's documents. The default answers Unsupported; the
  // format's row (output/formats.cc) lists the documents its reporter writes, the driver asks
  // only those, and a command offers only the formats that write its document.
  virtual Status Write(const explain::Comparison& comparison, std::ostream& out) const;
  virtual Status Write(const explain::Diff& diff, std::ostream& out) const;
  virtual Status Write(const explain::Summary& summary, std::ostream& out) const;
  virtual Status Write(const html::SavedReports& saved, std::ostream& out) const;
  // `powercut verify`'s evidence (the file --evidence reads).
  virtual Status Write(const model::PowercutEvidence& evidence, std::ostream& out) const;
};

}  // namespace durprobe::render
