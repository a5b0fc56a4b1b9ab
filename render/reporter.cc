#include "render/reporter.h"

namespace durprobe::render {

Status Reporter::Write(const explain::Comparison&, std::ostream&) const {
  return Status::Unsupported("this format has no view of a comparison");
}

Status Reporter::Write(const explain::Diff&, std::ostream&) const {
  return Status::Unsupported("this format has no view of a diff");
}

Status Reporter::Write(const explain::Summary&, std::ostream&) const {
  return Status::Unsupported("this format has no view of a summary");
}

Status Reporter::Write(const html::SavedReports&, std::ostream&) const {
  return Status::Unsupported("this format has no view of saved reports");
}

Status Reporter::Write(const model::PowercutEvidence&, std::ostream&) const {
  return Status::Unsupported("this format has no view of power-cut evidence");
}

}  // namespace durprobe::render
